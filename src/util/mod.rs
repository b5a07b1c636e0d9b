//! Small helpers with no Kafka concept of their own.

pub mod base64url;
pub mod bytes;
pub mod json;
pub mod lzss;
pub mod ordered;
pub mod rng;
pub mod sorted_map;
pub mod sorted_set;
