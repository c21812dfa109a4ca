//! Which bytes of a text are ASCII letters, as a bitmap built eight bytes at a time, and the
//! words (runs of letters) read off it. The word scan of `scan` looks at most words only by
//! their length and outer letters, so finding them an edge at a time instead of a byte at a time
//! (and without a branch at every byte) is most of what the scan saves.

/// Bit `i % 64` of word `i / 64`: byte `i` is an ASCII letter.
pub struct Letters {
    bits: Vec<u64>,
    len: usize,
}

const LOW7: u64 = 0x7F7F_7F7F_7F7F_7F7F;
const HIGH: u64 = 0x8080_8080_8080_8080;

/// The high bit of each byte of `x` set where that byte is an ASCII letter. `x | 0x20` folds
/// upper case onto lower case and leaves no other byte in `a..=z`; the two additions test the
/// range on seven bits, so no carry crosses into the next byte.
fn letter_bytes(x: u64) -> u64 {
    let lower = x | 0x2020_2020_2020_2020;
    let seven = lower & LOW7;
    let at_least_a = (seven + 0x1F1F_1F1F_1F1F_1F1F) & HIGH;
    let past_z = (seven + 0x0505_0505_0505_0505) & HIGH;
    at_least_a & !past_z & !lower & HIGH
}

/// The eight high bits of `x`, gathered into one byte (bit `k` from byte `k`).
fn gather(x: u64) -> u64 {
    ((x >> 7).wrapping_mul(0x0102_0408_1020_4080)) >> 56
}

/// The letter bits of 64 bytes.
fn block_bits(block: &[u8; 64]) -> u64 {
    let (eights, _) = block.as_chunks::<8>();
    let mut word = 0;
    for (k, eight) in eights.iter().enumerate() {
        word |= gather(letter_bytes(u64::from_le_bytes(*eight))) << (8 * k);
    }
    word
}

impl Letters {
    pub fn new(bytes: &[u8]) -> Letters {
        let mut bits = Vec::with_capacity(bytes.len() / 64 + 1);
        let (blocks, tail) = bytes.as_chunks::<64>();
        bits.extend(blocks.iter().map(block_bits));
        if !tail.is_empty() {
            // Padded with bytes that are not letters.
            let mut padded = [0u8; 64];
            padded[..tail.len()].copy_from_slice(tail);
            bits.push(block_bits(&padded));
        }
        Letters {
            bits,
            len: bytes.len(),
        }
    }

    /// Word boundaries: calls `f(start, end)` for every run of letters, in order. Each set bit
    /// of `edges` is where a run starts or ends, so the loop runs once per edge, not per byte.
    pub fn for_each_word(&self, mut f: impl FnMut(usize, usize)) {
        let (mut carry, mut start) = (0u64, 0usize);
        for (idx, &w) in self.bits.iter().enumerate() {
            let mut edges = w ^ (w << 1 | carry);
            carry = w >> 63;
            while edges != 0 {
                let at = idx * 64 + edges.trailing_zeros() as usize;
                edges &= edges - 1;
                if w >> (at % 64) & 1 == 1 {
                    start = at;
                } else {
                    f(start, at);
                }
            }
        }
        if carry == 1 {
            f(start, self.len);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Letters;
    use proptest::prelude::*;

    fn words(bytes: &[u8]) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        Letters::new(bytes).for_each_word(|a, b| out.push((a, b)));
        out
    }

    /// The words as a byte-at-a-time loop finds them.
    fn reference(bytes: &[u8]) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        let mut i = 0;
        while i < bytes.len() {
            if !bytes[i].is_ascii_alphabetic() {
                i += 1;
                continue;
            }
            let start = i;
            while i < bytes.len() && bytes[i].is_ascii_alphabetic() {
                i += 1;
            }
            out.push((start, i));
        }
        out
    }

    #[test]
    fn every_byte_value_is_classified_as_is_ascii_alphabetic_does() {
        let all: Vec<u8> = (0..=255u8).collect();
        let letters = Letters::new(&all);
        for b in 0..=255u8 {
            let bit = letters.bits[b as usize / 64] >> (b % 64) & 1 == 1;
            assert_eq!(bit, b.is_ascii_alphabetic(), "byte {b:#04x}");
        }
    }

    #[test]
    fn words_at_the_edges_of_blocks() {
        let mut text = vec![b' '; 200];
        for r in [0..3, 60..70, 127..128, 190..200] {
            text[r].fill(b'q');
        }
        assert_eq!(words(&text), [(0, 3), (60, 70), (127, 128), (190, 200)]);
        assert_eq!(words(b""), []);
        assert_eq!(words(&[b'a'; 64]), [(0, 64)]);
        assert_eq!(words(b"ab cd"), [(0, 2), (3, 5)]);
    }

    proptest! {
        #[test]
        fn words_match_a_byte_loop(bytes in prop::collection::vec(
            prop_oneof![Just(b'a'), Just(b'Z'), Just(b' '), Just(b'@'), Just(b'['), Just(0xC3u8), any::<u8>()],
            0..300,
        )) {
            prop_assert_eq!(words(&bytes), reference(&bytes));
        }
    }
}
