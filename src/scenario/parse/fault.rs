//! Fault steps: `fault drop|delay|duplicate|hold|release|cut|heal|error|clear …`,
//! `hold|release markers|requests API`, `drop next-request|next-response`, and the nodes
//! they name.

use super::*;

/// A node in a fault step: `broker-N`, `controller` (the lone controller),
/// `controller-N` (a voter of a larger quorum), or a client's name (`client:NAME` for a
/// client whose name would read as one of the others).
pub fn parse_node(text: &str) -> Node {
    if text == "controller" {
        return Node::LONE_CONTROLLER;
    }
    if let Some(Ok(id)) = text.strip_prefix("controller-").map(str::parse::<i32>) {
        return Node::Controller(id);
    }
    if let Some(name) = text.strip_prefix("client:") {
        return Node::Client(name.to_string());
    }
    match text.strip_prefix("broker-").map(str::parse::<i32>) {
        Some(Ok(id)) => Node::Broker(id),
        _ => Node::Client(text.to_string()),
    }
}

/// An `api=` value: one of Kafka's API names the network carries. A typo (`Prodcue`)
/// would arm a fault that never strikes: refused, with the names it could be.
fn known_api(c: &Cursor, t: &super::tokens::Token, api: String) -> Result<String, ParseError> {
    if crate::protocol::API_NAMES.contains(&api.as_str()) {
        return Ok(api);
    }
    Err(c.err(
        t.column,
        msg!(
            "parse.unknown-api-of",
            api = api,
            apis = crate::protocol::API_NAMES.join(", ")
        ),
    ))
}

/// `hold|release markers` and `hold|release requests API` (`hold`: true for hold): the
/// coordinator's markers, or one API's requests, wait in the network until released.
pub(super) fn hold_step(c: &mut Cursor, hold: bool) -> Result<StepKind, ParseError> {
    let what = c.next(What::OneOf(&["`markers`", "`requests API`"]))?;
    let kind = match what.text.as_str() {
        "markers" => {
            c.done()?;
            StepKind::Act(if hold {
                Action::HoldMarkers
            } else {
                Action::ReleaseMarkers
            })
        }
        "requests" => {
            let api = c.next(What::Id("parse.what.api-name"))?;
            if !crate::protocol::API_NAMES.contains(&api.text.as_str()) {
                return Err(c.err(api.column, arg1("parse.unknown-api", "api", &api.text)));
            }
            c.done()?;
            let api = api.text.clone();
            StepKind::Act(if hold {
                Action::HoldRequests { api }
            } else {
                Action::ReleaseRequests { api }
            })
        }
        _ => {
            return Err(c.err(
                what.column,
                msg!(
                    "parse.expected",
                    what = one_of(&["`markers`", "`requests API`"])
                ),
            ))
        }
    };
    Ok(kind)
}

/// `drop next-request [from=CLIENT]` and `drop next-response [to=CLIENT]`: the next
/// request (or response) of that client, or of any, is lost.
pub(super) fn drop_step(c: &mut Cursor) -> Result<StepKind, ParseError> {
    let which = c.next(What::OneOf(&["next-request", "next-response"]))?;
    let (opts, words) = c.rest();
    no_words(c, &words)?;
    let who = opts.first().map(|(_, _, v)| v.clone());
    if let Some((t, k, _)) = opts.first() {
        let want = if which.text == "next-request" {
            "from"
        } else {
            "to"
        };
        if k != want {
            return Err(c.err(
                t.column,
                msg!("parse.expected", what = format!("{want}=CLIENT")),
            ));
        }
    }
    let kind = match which.text.as_str() {
        "next-request" => StepKind::Act(Action::DropNextRequest { from: who }),
        "next-response" => StepKind::Act(Action::DropNextResponse { to: who }),
        other => return Err(c.err(which.column, arg1("parse.unknown-fault", "word", other))),
    };
    Ok(kind)
}

/// The longest `fault delay` (an int of milliseconds, as `run` takes).
const MAX_DELAY_MS: i64 = i32::MAX as i64;

/// `fault drop|delay MS|duplicate|hold|release|cut|heal|error|clear …` (docs/scenarios.md).
pub(super) fn fault_step(c: &mut Cursor) -> Result<Action, ParseError> {
    let verb = c.next(What::OneOf(&[
        "drop",
        "delay",
        "duplicate",
        "hold",
        "release",
        "cut",
        "heal",
        "error",
        "disarm",
        "clear",
    ]))?;
    let next_message = |t: &Token| t.text == "next-request" || t.text == "next-response";
    match verb.text.as_str() {
        "drop" if c.peek().is_some_and(next_message) => drop_next_fault(c),
        "delay" => {
            let ms = delay_ms(c)?;
            message_fault(c, verb, ms)
        }
        "drop" | "duplicate" | "hold" => message_fault(c, verb, 0),
        "hold-requests" => hold_requests_fault(c, verb),
        "release" => release_fault(c, verb),
        "cut" => {
            let (a, b) = node_pair(c, verb)?;
            Ok(Action::ArmFault {
                fault: Fault::Cut { a, b },
            })
        }
        "heal" => {
            let (a, b) = node_pair(c, verb)?;
            Ok(Action::HealLink { a, b })
        }
        "error" => error_fault(c, verb),
        #[cfg(feature = "log-cleaner")]
        "corrupt" => super::disk::corrupt_step(c),
        // A site without the disk steps (the main page, Pulsar's).
        #[cfg(not(feature = "log-cleaner"))]
        "corrupt" => Err(c.err(verb.column, msg!("parse.no-log-cleaner"))),
        "clear" => {
            c.done()?;
            Ok(Action::ClearFaults)
        }
        "disarm" => disarm_fault(c, verb),
        other => Err(c.err(verb.column, arg1("parse.unknown-fault", "word", other))),
    }
}

/// The `MS[ms]` after `fault delay`: an int of milliseconds, as `run` and Kafka's
/// timeouts take. A longer delay outlasts every timeout anyway, and one near i64::MAX held
/// the link's later messages behind it for good.
fn delay_ms(c: &mut Cursor) -> Result<i64, ParseError> {
    let t = c.next(What::Id("parse.what.delay"))?;
    let ms = t.text.trim_end_matches("ms");
    match ms.parse::<i64>() {
        Ok(n) if (0..=MAX_DELAY_MS).contains(&n) => Ok(n),
        _ => Err(c.err(
            t.column,
            msg!("scenario.delay-range", max = MAX_DELAY_MS, value = ms),
        )),
    }
}

/// `fault drop next-request [from=C]`, `fault drop next-response [to=C]`: the one-shot
/// drops, armed as `Fault`s.
fn drop_next_fault(c: &mut Cursor) -> Result<Action, ParseError> {
    let request = c.next(What::Code("next-request"))?.text == "next-request";
    let (opts, words) = c.rest();
    no_words(c, &words)?;
    let want = if request { "from" } else { "to" };
    let who = match opts.as_slice() {
        [] => None,
        [(_, k, v)] if k == want => Some(v.clone()),
        [(t, ..), ..] => {
            return Err(c.err(
                t.column,
                msg!("parse.expected", what = format!("{want}=CLIENT")),
            ))
        }
    };
    Ok(Action::ArmFault {
        fault: if request {
            Fault::DropNextRequest { from: who }
        } else {
            Fault::DropNextResponse { to: who }
        },
    })
}

/// `fault hold-requests api=API`: that API's requests wait until released.
fn hold_requests_fault(c: &mut Cursor, verb: &Token) -> Result<Action, ParseError> {
    let (opts, words) = c.rest();
    no_words(c, &words)?;
    match opts.as_slice() {
        [(t, k, v)] if k == "api" => Ok(Action::ArmFault {
            fault: Fault::HoldRequests {
                api: known_api(c, t, v.clone())?,
            },
        }),
        _ => Err(c.err(verb.column, msg!("parse.expected", what = "api=API"))),
    }
}

/// `fault drop|delay MS|duplicate|hold [api=API] [from=N] [to=N] [request|response]
/// [every]`, or `… id=N` alone: one message already on the wire (a timeline click).
fn message_fault(c: &mut Cursor, verb: &Token, ms: i64) -> Result<Action, ParseError> {
    let (opts, words) = c.rest();
    if let [(t, k, v)] = opts.as_slice() {
        if k == "id" {
            no_words(c, &words)?;
            let id = number(c, t, v, msg!("parse.number.message-id"))?;
            let strike = match verb.text.as_str() {
                "drop" => MessageStrike::Drop,
                "delay" => MessageStrike::Delay { ms },
                "duplicate" => MessageStrike::Duplicate,
                _ => MessageStrike::Hold,
            };
            return Ok(Action::ArmFault {
                fault: Fault::Message { id, strike },
            });
        }
    }
    let mut m = MessageMatch::default();
    let mut every = false;
    for (t, k, v) in opts {
        match k.as_str() {
            "api" => m.api = Some(known_api(c, t, v)?),
            "from" => m.from = Some(parse_node(&v)),
            "to" => m.to = Some(parse_node(&v)),
            _ => return Err(c.err(t.column, arg1("parse.unknown-fault-option", "option", &k))),
        }
    }
    for t in words {
        match t.text.as_str() {
            "every" if verb.text != "hold" => every = true,
            "request" if m.direction.is_none() => m.direction = Some(Direction::Request),
            "response" if m.direction.is_none() => m.direction = Some(Direction::Response),
            other => return Err(c.err(t.column, unexpected(other))),
        }
    }
    Ok(Action::ArmFault {
        fault: match verb.text.as_str() {
            "drop" => Fault::Drop { matching: m, every },
            "delay" => Fault::Delay {
                matching: m,
                ms,
                every,
            },
            "duplicate" => Fault::Duplicate { matching: m, every },
            _ => Fault::Hold { matching: m },
        },
    })
}

/// `fault release api=API` (what that API's hold keeps) or `fault release id=N` (one
/// held message).
fn release_fault(c: &mut Cursor, verb: &Token) -> Result<Action, ParseError> {
    let (opts, words) = c.rest();
    no_words(c, &words)?;
    match opts.as_slice() {
        [(t, k, v)] if k == "api" => Ok(Action::ReleaseHeld {
            api: known_api(c, t, v.clone())?,
        }),
        [(t, k, v)] if k == "id" => Ok(Action::ReleaseMessage {
            id: number(c, t, v, msg!("parse.number.message-id"))?,
        }),
        _ => Err(c.err(
            verb.column,
            msg!("parse.expected", what = one_of(&["api=API", "id=N"])),
        )),
    }
}

/// The two nodes of `fault cut|heal A B`, then the end of the line.
fn node_pair(c: &mut Cursor, verb: &Token) -> Result<(Node, Node), ParseError> {
    let a = c.next(What::Id("parse.what.two-nodes"))?;
    let b = c.next(What::Id("parse.what.second-node"))?;
    c.done()?;
    let (a, b) = (parse_node(&a.text), parse_node(&b.text));
    if a == b {
        return Err(c.err(verb.column, msg!("parse.link-nodes")));
    }
    Ok((a, b))
}

/// `fault error api=API ERROR_NAME`: that API's next request is answered with Kafka's
/// error.
fn error_fault(c: &mut Cursor, verb: &Token) -> Result<Action, ParseError> {
    let (opts, words) = c.rest();
    let api = match opts.as_slice() {
        [(t, k, v)] if k == "api" => known_api(c, t, v.clone())?,
        _ => return Err(c.err(verb.column, msg!("parse.api-and-error"))),
    };
    let [word] = words.as_slice() else {
        return Err(c.err(c.end_column + 1, msg!("parse.one-error-name")));
    };
    let error = Errors::ALL
        .iter()
        .copied()
        .find(|e| *e != Errors::None && e.name() == word.text)
        .ok_or_else(|| c.err(word.column, arg1("parse.unknown-error", "name", &word.text)))?;
    Ok(Action::ArmFault {
        fault: Fault::Error { api, error },
    })
}

/// `fault disarm FAULT`: the fault as the step that armed it, without `fault`. One level
/// only: `disarm disarm …` is refused before it recurses (a line of 15,000 of them would
/// overflow the stack — and a share link is input).
fn disarm_fault(c: &mut Cursor, verb: &Token) -> Result<Action, ParseError> {
    if let Some(t) = c
        .peek()
        .filter(|t| matches!(t.text.as_str(), "disarm" | "clear"))
    {
        return Err(c.err(t.column, armed_fault()));
    }
    match fault_step(c)? {
        Action::ArmFault { fault } if !matches!(fault, Fault::Message { .. }) => {
            Ok(Action::DisarmFault { fault })
        }
        _ => Err(c.err(verb.column, armed_fault())),
    }
}

/// "expected an armed fault: …": what `fault disarm` takes.
fn armed_fault() -> Msg {
    msg!(
        "parse.armed-fault",
        faults = one_of(&[
            "drop",
            "delay",
            "duplicate",
            "hold",
            "hold-requests",
            "cut",
            "error"
        ])
    )
}
