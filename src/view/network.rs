//! The network panel of the transactions page: the nodes a link can join (the clients
//! and the brokers), every fault in force with the action that takes it out of force
//! (heal a cut link, disarm the rest), and the messages held in the network with the
//! action that lets each go.

use crate::scenario::print::print_fault;
use crate::sim::{Action, Fault, Node, World};

/// What the button next to a fault in force does, so the page can word it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClearKind {
    /// Heal a cut link (`fault heal A B`).
    Heal,
    /// End a hold: its messages go on their way (`fault disarm hold …`).
    Release,
    /// Disarm a drop, delay, duplicate or error fault (`fault disarm …`).
    Disarm,
}

/// One fault in force.
#[derive(Clone, Debug, PartialEq)]
pub struct ArmedFault {
    pub fault: Fault,
    /// The scenario step that armed it (`fault cut producer-1 broker-2`).
    pub step: String,
    pub clear_kind: ClearKind,
    /// What the button next to it applies.
    pub clear: Action,
}

/// One message a hold keeps in the network.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeldMessage {
    pub id: u64,
    pub api: String,
    pub response: bool,
    pub from: Node,
    pub to: Node,
    /// `fault release id=N`: it arrives after the messages sent since (a reorder).
    pub release: Action,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct NetworkView {
    /// The nodes a link can join: clients (producers, then consumers), then brokers.
    pub nodes: Vec<Node>,
    /// Oldest first, as the network strikes with them.
    pub faults: Vec<ArmedFault>,
    /// Oldest first.
    pub held: Vec<HeldMessage>,
}

impl NetworkView {
    /// The links cut now.
    pub fn cut_links(&self) -> impl Iterator<Item = (&Node, &Node)> {
        self.faults.iter().filter_map(|f| match &f.fault {
            Fault::Cut { a, b } => Some((a, b)),
            _ => None,
        })
    }

    /// Whether the link between `a` and `b` is cut now.
    pub fn is_cut(&self, a: &Node, b: &Node) -> bool {
        self.cut_links()
            .any(|(x, y)| (x == a && y == b) || (x == b && y == a))
    }
}

/// What the page lets a learner cut: a client↔broker or a broker↔broker link (two
/// clients never talk to each other; the controller only answers brokers).
pub fn link_allowed(a: &Node, b: &Node) -> bool {
    a != b && matches!((a, b), (Node::Broker(_), _) | (_, Node::Broker(_)))
}

/// Cuts the link (`fault cut A B`), or heals it (`fault heal A B`) when it is cut now;
/// `None` for a pair [`link_allowed`] refuses.
pub fn link_action(view: &NetworkView, a: &Node, b: &Node) -> Option<Action> {
    if !link_allowed(a, b) {
        return None;
    }
    let (a, b) = (a.clone(), b.clone());
    Some(if view.is_cut(&a, &b) {
        Action::HealLink { a, b }
    } else {
        Action::ArmFault {
            fault: Fault::Cut { a, b },
        }
    })
}

/// The action that takes `fault` out of force, and how to word its button.
pub fn clear_action(fault: &Fault) -> (ClearKind, Action) {
    match fault {
        Fault::Cut { a, b } => (
            ClearKind::Heal,
            Action::HealLink {
                a: a.clone(),
                b: b.clone(),
            },
        ),
        f @ (Fault::Hold { .. } | Fault::HoldRequests { .. }) => {
            (ClearKind::Release, Action::DisarmFault { fault: f.clone() })
        }
        f => (ClearKind::Disarm, Action::DisarmFault { fault: f.clone() }),
    }
}

/// Reads the network panel from `world`.
pub fn network_view(world: &World) -> NetworkView {
    let nodes = world
        .producers()
        .keys()
        .chain(world.consumers().keys())
        .map(|c| Node::Client(c.clone()))
        .chain(world.brokers().keys().map(|b| Node::Broker(*b)))
        .collect();
    let faults = world
        .network()
        .faults()
        .iter()
        .map(|f| {
            let (clear_kind, clear) = clear_action(f);
            ArmedFault {
                fault: f.clone(),
                step: print_fault(f),
                clear_kind,
                clear,
            }
        })
        .collect();
    let held = world
        .network()
        .held()
        .iter()
        .map(|e| HeldMessage {
            id: e.id,
            api: e.body.api_name().to_string(),
            response: e.body.is_response(),
            from: e.from.clone(),
            to: e.to.clone(),
            release: Action::ReleaseMessage { id: e.id },
        })
        .collect();
    NetworkView {
        nodes,
        faults,
        held,
    }
}
