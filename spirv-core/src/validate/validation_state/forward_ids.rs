//! The ids referred to forward and not yet defined, in the order spirv-val's messages
//! list them: the iteration order of a libstdc++ `std::unordered_set<uint32_t>`
//! (`ValidationState_t::unresolved_forward_ids_`, a function's `undefined_blocks_`),
//! replayed operation for operation.

use crate::__private::Vec;
use alloc::collections::BTreeMap;

/// The ids referred to forward and not yet defined, kept in the order spirv-val's
/// `std::unordered_set<uint32_t>` iterates them (libstdc++, as the SPIRV-Tools 2025.5
/// binaries are built), since its message lists them in that order. libstdc++ keeps
/// one singly linked list: an id goes to the front of its bucket's run, or to the
/// front of the list when its bucket is empty; a rehash re-inserts every node in list
/// order the same way; erasing unlinks. The bucket count starts at 13 and grows to the
/// prime at or after twice its size. Each operation here is O(log n).
#[derive(Debug, Default)]
pub(crate) struct ForwardIds {
    /// Nodes: the id and its neighbours in the list (`NIL` at the ends).
    nodes: Vec<Node>,
    /// Nodes free for reuse.
    free: Vec<u32>,
    /// The node of each id in the set.
    index: BTreeMap<u32, u32>,
    head: u32,
    /// The first node of each bucket's run, or `NIL`.
    buckets: Vec<u32>,
    /// The element count that triggers the next rehash.
    next_resize: usize,
}

#[derive(Debug, Clone, Copy)]
struct Node {
    id: u32,
    prev: u32,
    next: u32,
}

const NIL: u32 = u32::MAX;

/// The bucket counts libstdc++'s unordered_set grows through (measured with GCC 12's
/// libstdc++: 13 for the first element, then `_M_next_bkt(2 * n)`).
const BUCKET_COUNTS: [usize; 19] = [
    13, 29, 59, 127, 257, 541, 1109, 2357, 5087, 10273, 20753, 42043, 85229, 172933, 351061,
    712697, 1447153, 2938679, 5967347,
];

impl ForwardIds {
    pub(crate) fn contains(&self, id: u32) -> bool {
        self.index.contains_key(&id)
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.index.is_empty()
    }

    /// The ids in the set's iteration order.
    pub(crate) fn ids(&self) -> Vec<u32> {
        let mut out = Vec::with_capacity(self.index.len());
        let mut at = if self.nodes.is_empty() {
            NIL
        } else {
            self.head
        };
        while at != NIL {
            let n = self.nodes[at as usize];
            out.push(n.id);
            at = n.next;
        }
        out
    }

    fn bucket(&self, id: u32) -> usize {
        id as usize % self.buckets.len()
    }

    pub(crate) fn insert(&mut self, id: u32) {
        if self.contains(id) {
            return;
        }
        if self.index.len() + 1 > self.next_resize {
            let wanted = if self.buckets.is_empty() {
                13
            } else {
                self.buckets.len() * 2
            };
            let n = BUCKET_COUNTS
                .iter()
                .copied()
                .find(|&b| b >= wanted)
                .unwrap_or(wanted | 1);
            self.rehash(n);
        }
        let node = match self.free.pop() {
            Some(f) => f,
            None => {
                self.nodes.push(Node {
                    id,
                    prev: NIL,
                    next: NIL,
                });
                (self.nodes.len() - 1) as u32
            }
        };
        self.nodes[node as usize].id = id;
        self.index.insert(id, node);
        self.link(node);
    }

    /// Links a node in: before its bucket's first node, or at the list's front.
    fn link(&mut self, node: u32) {
        let bucket = self.bucket(self.nodes[node as usize].id);
        let first = self.buckets[bucket];
        let (prev, next) = if first == NIL {
            (NIL, if self.index.len() > 1 { self.head } else { NIL })
        } else {
            (self.nodes[first as usize].prev, first)
        };
        self.nodes[node as usize].prev = prev;
        self.nodes[node as usize].next = next;
        if prev == NIL {
            self.head = node;
        } else {
            self.nodes[prev as usize].next = node;
        }
        if next != NIL {
            self.nodes[next as usize].prev = node;
        }
        self.buckets[bucket] = node;
    }

    pub(crate) fn remove(&mut self, id: u32) {
        let Some(node) = self.index.remove(&id) else {
            return;
        };
        let Node { prev, next, .. } = self.nodes[node as usize];
        let bucket = self.bucket(id);
        if self.buckets[bucket] == node {
            let same = next != NIL && self.bucket(self.nodes[next as usize].id) == bucket;
            self.buckets[bucket] = if same { next } else { NIL };
        }
        if prev == NIL {
            self.head = next;
        } else {
            self.nodes[prev as usize].next = next;
        }
        if next != NIL {
            self.nodes[next as usize].prev = prev;
        }
        self.free.push(node);
    }

    /// Re-inserts every node, in list order, into `n` buckets.
    fn rehash(&mut self, n: usize) {
        let order: Vec<u32> = {
            let mut v = Vec::with_capacity(self.index.len());
            let mut at = if self.index.is_empty() {
                NIL
            } else {
                self.head
            };
            while at != NIL {
                v.push(at);
                at = self.nodes[at as usize].next;
            }
            v
        };
        self.buckets.clear();
        self.buckets.resize(n, NIL);
        self.next_resize = n;
        self.head = NIL;
        // `link` looks at the count to know whether the list is empty: count the
        // nodes linked so far instead.
        let live = core::mem::take(&mut self.index);
        for (k, &node) in order.iter().enumerate() {
            let bucket = self.bucket(self.nodes[node as usize].id);
            let first = self.buckets[bucket];
            let (prev, next) = if first == NIL {
                (NIL, if k > 0 { self.head } else { NIL })
            } else {
                (self.nodes[first as usize].prev, first)
            };
            self.nodes[node as usize].prev = prev;
            self.nodes[node as usize].next = next;
            if prev == NIL {
                self.head = node;
            } else {
                self.nodes[prev as usize].next = node;
            }
            if next != NIL {
                self.nodes[next as usize].prev = node;
            }
            self.buckets[bucket] = node;
        }
        self.index = live;
    }
}

#[cfg(test)]
mod tests {
    use super::ForwardIds;

    #[test]
    fn forward_ids_iterate_as_libstdcxx_unordered_set() {
        // Printed by a GCC 12 program doing the same operations.
        let mut f = ForwardIds::default();
        for id in [7, 3, 12, 5, 1000, 9, 14, 2] {
            f.insert(id);
        }
        f.remove(12);
        assert_eq!(f.ids(), [2, 14, 9, 5, 1000, 3, 7]);
    }
}
