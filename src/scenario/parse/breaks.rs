//! `break NAME [off]`: a NOT KAFKA switch (`crate::breaks`) on or off.

use super::*;
use crate::breaks::BreakSwitch;

pub(super) fn break_step(c: &mut Cursor) -> Result<Action, ParseError> {
    let name = c.next(What::Id("parse.what.switch"))?;
    let switch = BreakSwitch::parse(&name.text).map_err(|e| {
        c.err(
            name.column,
            crate::i18n::checker::break_name_msg(e, &name.text),
        )
    })?;
    let on = match c.peek() {
        None => true,
        Some(t) if t.text == "off" => {
            c.pos += 1;
            false
        }
        Some(t) if t.text == "on" => {
            c.pos += 1;
            true
        }
        Some(t) => return Err(c.err(t.column, msg!("parse.after-switch"))),
    };
    c.done()?;
    Ok(Action::Break { switch, on })
}
