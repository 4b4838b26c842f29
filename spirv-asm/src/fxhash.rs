//! A small, fast, non-cryptographic hasher (the Fx multiply-rotate scheme) for the
//! id and name tables; SipHash showed as a tenth of the assembler's time.
//!
//! Keys come from the input, and with a fixed seed the keys that share a bucket can be
//! computed offline (for a `u32` key the hash is a bijection), which makes every table
//! operation linear and the run quadratic. Each table therefore starts from a random
//! seed, drawn from the standard library's per-process hash keys. No output depends on
//! a table's iteration order.

use std::hash::{BuildHasher, Hasher};

/// Multiply-rotate hasher over 8-byte chunks.
#[derive(Default, Clone, Copy)]
pub struct FxHasher(u64);

const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

impl FxHasher {
    #[inline]
    fn add(&mut self, w: u64) {
        self.0 = (self.0.rotate_left(5) ^ w).wrapping_mul(SEED);
    }
}

impl Hasher for FxHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            self.add(u64::from_le_bytes([
                c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7],
            ]));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut b = [0u8; 8];
            b[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(b));
        }
    }
    #[inline]
    fn write_u8(&mut self, i: u8) {
        self.add(u64::from(i));
    }
    #[inline]
    fn write_u32(&mut self, i: u32) {
        self.add(u64::from(i));
    }
    #[inline]
    fn write_u64(&mut self, i: u64) {
        self.add(i);
    }
    #[inline]
    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }
    #[inline]
    fn finish(&self) -> u64 {
        // The multiply leaves the low bits weak, and hash tables index by them: mix the
        // high bits down (a splitmix64-style finalizer).
        let mut h = self.0;
        h ^= h >> 31;
        h = h.wrapping_mul(0xbf58_476d_1ce4_e5b9);
        h ^ (h >> 29)
    }
}

/// Makes [`FxHasher`]s that start from a seed drawn at random when it is created.
#[derive(Clone, Copy, Debug)]
pub struct FxBuildHasher {
    seed: u64,
}

impl Default for FxBuildHasher {
    fn default() -> Self {
        FxBuildHasher {
            seed: std::collections::hash_map::RandomState::new().hash_one(SEED),
        }
    }
}

impl BuildHasher for FxBuildHasher {
    type Hasher = FxHasher;
    #[inline]
    fn build_hasher(&self) -> FxHasher {
        FxHasher(self.seed)
    }
}

impl FxBuildHasher {
    /// The hash of a byte string, for tables that store their keys elsewhere.
    #[inline]
    pub fn hash_bytes(&self, bytes: &[u8]) -> u64 {
        let mut h = self.build_hasher();
        h.write(bytes);
        h.finish()
    }
}

/// `HashMap` with [`FxHasher`], randomly seeded.
pub type FxHashMap<K, V> = std::collections::HashMap<K, V, FxBuildHasher>;
