//! A message before it is worded: a catalog id and its named arguments. The code that
//! maps an event to a [`Msg`] is the same for every language; only the template the id
//! names differs (see `catalog/en.txt`).

use std::fmt::Display;

/// One message of the catalog, not yet in any language.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Msg {
    pub(crate) id: &'static str,
    pub(crate) args: Vec<(&'static str, Arg)>,
}

/// The value of a placeholder: plain text (numbers, names, Kafka's identifiers — never
/// translated), another message (worded in the same language), or a list of values
/// joined by the language's `list.separator`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Arg {
    Text(String),
    Msg(Msg),
    List(Vec<Arg>),
}

impl Msg {
    /// A message with no arguments.
    pub fn new(id: &'static str) -> Msg {
        Msg {
            id,
            args: Vec::new(),
        }
    }

    /// Adds the argument `name`.
    pub fn arg(mut self, name: &'static str, value: impl IntoArg) -> Msg {
        self.args.push((name, value.into_arg()));
        self
    }

    /// The catalog id.
    pub fn id(&self) -> &'static str {
        self.id
    }

    /// The argument `name`, if given.
    pub fn get(&self, name: &str) -> Option<&Arg> {
        self.args.iter().find(|(n, _)| *n == name).map(|(_, a)| a)
    }
}

/// A list argument, joined by the language's `list.separator`.
pub fn list(items: impl IntoIterator<Item = Arg>) -> Arg {
    Arg::List(items.into_iter().collect())
}

/// `msg!("id", name = value, …)`: a [`Msg`] whose arguments are named like the
/// template's placeholders. A value is any `Display` (worded as is) a [`Msg`] (worded in
/// the same language) or a [`list`].
#[macro_export]
macro_rules! msg {
    ($id:literal $(, $name:ident = $value:expr)* $(,)?) => {
        $crate::i18n::Msg::new($id)$(.arg(stringify!($name), $value))*
    };
}

/// What `msg!` accepts as a value.
pub trait IntoArg {
    fn into_arg(self) -> Arg;
}

impl IntoArg for Arg {
    fn into_arg(self) -> Arg {
        self
    }
}

impl IntoArg for Msg {
    fn into_arg(self) -> Arg {
        Arg::Msg(self)
    }
}

impl<T: Display> IntoArg for T {
    fn into_arg(self) -> Arg {
        Arg::Text(self.to_string())
    }
}

impl From<Msg> for Arg {
    fn from(m: Msg) -> Arg {
        Arg::Msg(m)
    }
}
