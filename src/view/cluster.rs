//! The cluster panel's model: each broker's card with its link to the controller and
//! the transactional ids it coordinates, and the shown partition's replicas — only when
//! the world has more than one broker (with one, the broker panel says it all).

use crate::log::TopicPartition;
use crate::sim::World;
use crate::view::replicas::BrokerCard;

/// One broker as the panel shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct ClusterBroker {
    pub card: BrokerCard,
    /// Its link to the controller is cut (fenced once its session times out).
    pub cut: bool,
    /// The transactional ids it coordinates.
    pub coordinates: Vec<String>,
}

/// The cluster panel and the shown partition's replicas, for a world of more than one
/// broker (None with one: the broker panel says it all).
#[derive(Clone, Debug, PartialEq)]
pub struct ClusterViews {
    pub brokers: Vec<ClusterBroker>,
    pub replicas: Option<crate::view::replicas::ReplicasPanel>,
}

pub fn cluster_views(world: &World, tp: Option<&TopicPartition>) -> Option<ClusterViews> {
    if world.brokers().len() < 2 {
        return None;
    }
    // Who coordinates which id, from the coordinators' metadata alone: the coordinator
    // panel's full view also reads each id's `__transaction_state` records, which grow
    // with every transaction.
    let coordinated = world.coordinated_transactions();
    let brokers = crate::view::replicas::brokers(world)
        .into_iter()
        .map(|card| ClusterBroker {
            cut: world.network().is_cut(
                &crate::sim::Node::Broker(card.id),
                &crate::sim::Node::LONE_CONTROLLER,
            ),
            // A coordinator's transactions come in id order, as the panel lists them.
            coordinates: coordinated
                .iter()
                .filter(|t| t.coordinator == card.id)
                .map(|t| t.metadata.transactional_id().to_string())
                .collect(),
            card,
        })
        .collect();
    Some(ClusterViews {
        brokers,
        replicas: tp.and_then(|tp| crate::view::replicas::replicas(world, tp)),
    })
}
