//! The logical clock's steps: `step` (the next message or timer), `run` (until nothing
//! is left to do) and `run MS[ms]` (the clock moves on that far).

use super::*;

/// `step`.
pub(super) fn step_step(c: &mut Cursor) -> Result<StepKind, ParseError> {
    c.done()?;
    Ok(StepKind::Act(Action::Step))
}

/// `run` or `run MS`.
pub(super) fn run_step(c: &mut Cursor) -> Result<StepKind, ParseError> {
    let Some(t) = c.peek() else {
        return Ok(StepKind::Act(Action::RunUntilIdle));
    };
    let ms: i64 = number(
        c,
        t,
        t.text.trim_end_matches("ms"),
        msg!("parse.number.run-time"),
    )?;
    c.pos += 1;
    c.done()?;
    Ok(StepKind::Act(Action::Advance { ms }))
}
