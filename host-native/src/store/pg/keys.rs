//! Keys as PostgreSQL orders them: one `bytea` per key, whose bytes compare (PostgreSQL compares
//! `bytea` as `memcmp` does, then by length) exactly as redb compares the key (`Key::compare`:
//! tuples element by element, integers by value, strings by their bytes).
//!
//! One column for every key shape keeps the SQL the same for every table, and a range is one
//! index scan between two byte strings. redb's own bytes do not order this way (its integers
//! are little-endian, its tuples carry lengths), so each part is written anew:
//!
//! - `u64`, `u8`: big-endian;
//! - `i64`: big-endian with the sign bit flipped, so negative numbers come first;
//! - a string: its bytes with each 0x00 written 0x00 0xFF, then 0x00 0x00. A string that is a
//!   prefix of another ends (0x00 0x00) before the other's next byte or escape (0x00 0xFF),
//!   so it sorts first, and what follows the string compares only when the strings are equal.
//!
//! A row read back is turned into redb's bytes of the same key, which the engine seam's
//! guards decode as they decode redb's.

use redb::{Key, Value};

/// A table key that has an ordered encoding: the shapes `tables.rs` uses.
pub trait OrderedKey: Key + 'static {
    /// The key's ordered bytes.
    fn encode(key: &Self::SelfType<'_>) -> Vec<u8>;
    /// redb's bytes of the key whose ordered bytes are `ordered`; `None` if they are not one.
    fn decode(ordered: &[u8]) -> Option<Vec<u8>>;
}

/// Greater than every key's ordered bytes: the upper end of a range open at the top. No key
/// starts with this many 0xFF bytes: integers take at most 24 bytes of a key, and a string's
/// bytes (UTF-8) are never 0xFF.
pub const ABOVE_EVERY_KEY: [u8; 32] = [0xFF; 32];

/// One element of a key.
trait Part: Key + 'static {
    /// The element decoded, owned, for [`Part::view`] to lend out.
    type Owned;
    fn put(value: &Self::SelfType<'_>, out: &mut Vec<u8>);
    fn take(input: &mut &[u8]) -> Option<Self::Owned>;
    fn view(owned: &Self::Owned) -> Self::SelfType<'_>;
}

fn split<const N: usize>(input: &mut &[u8]) -> Option<[u8; N]> {
    let (head, rest) = input.split_first_chunk::<N>()?;
    *input = rest;
    Some(*head)
}

impl Part for u64 {
    type Owned = u64;
    fn put(value: &u64, out: &mut Vec<u8>) {
        out.extend_from_slice(&value.to_be_bytes());
    }
    fn take(input: &mut &[u8]) -> Option<u64> {
        split(input).map(u64::from_be_bytes)
    }
    fn view(owned: &u64) -> u64 {
        *owned
    }
}

impl Part for u8 {
    type Owned = u8;
    fn put(value: &u8, out: &mut Vec<u8>) {
        out.push(*value);
    }
    fn take(input: &mut &[u8]) -> Option<u8> {
        split::<1>(input).map(|[b]| b)
    }
    fn view(owned: &u8) -> u8 {
        *owned
    }
}

const SIGN: u64 = 1 << 63;

impl Part for i64 {
    type Owned = i64;
    fn put(value: &i64, out: &mut Vec<u8>) {
        out.extend_from_slice(&((*value as u64) ^ SIGN).to_be_bytes());
    }
    fn take(input: &mut &[u8]) -> Option<i64> {
        split(input).map(|b| (u64::from_be_bytes(b) ^ SIGN) as i64)
    }
    fn view(owned: &i64) -> i64 {
        *owned
    }
}

impl Part for &'static str {
    type Owned = String;
    fn put(value: &&str, out: &mut Vec<u8>) {
        for &byte in value.as_bytes() {
            out.push(byte);
            if byte == 0 {
                out.push(0xFF);
            }
        }
        out.extend_from_slice(&[0, 0]);
    }
    fn take(input: &mut &[u8]) -> Option<String> {
        let mut bytes = Vec::new();
        loop {
            let [byte] = split::<1>(input)?;
            if byte != 0 {
                bytes.push(byte);
                continue;
            }
            match split::<1>(input)? {
                [0xFF] => bytes.push(0),
                [0] => return String::from_utf8(bytes).ok(),
                _ => return None,
            }
        }
    }
    fn view(owned: &String) -> &str {
        owned
    }
}

/// A key of one part.
macro_rules! single {
    ($($t:ty),*) => {$(
        impl OrderedKey for $t {
            fn encode(key: &Self::SelfType<'_>) -> Vec<u8> {
                let mut out = Vec::with_capacity(9);
                <$t as Part>::put(key, &mut out);
                out
            }
            fn decode(mut ordered: &[u8]) -> Option<Vec<u8>> {
                let owned = <$t as Part>::take(&mut ordered)?;
                let key: <$t as Value>::SelfType<'_> = <$t as Part>::view(&owned);
                let bytes = <$t as Value>::as_bytes(&key);
                ordered.is_empty().then(|| AsRef::<[u8]>::as_ref(&bytes).to_vec())
            }
        }
    )*};
}

single!(u64, &'static str);

/// A key of several parts, a redb tuple.
macro_rules! tuple {
    ($($part:ident $owned:ident),*) => {
        impl<$($part: Part),*> OrderedKey for ($($part,)*) {
            #[allow(non_snake_case)]
            fn encode(key: &Self::SelfType<'_>) -> Vec<u8> {
                let mut out = Vec::with_capacity(32);
                let ($($part,)*) = key;
                $($part::put($part, &mut out);)*
                out
            }
            fn decode(mut ordered: &[u8]) -> Option<Vec<u8>> {
                $(let $owned = $part::take(&mut ordered)?;)*
                if !ordered.is_empty() {
                    return None;
                }
                let key: Self::SelfType<'_> = ($($part::view(&$owned),)*);
                let bytes = <Self as Value>::as_bytes(&key);
                Some(AsRef::<[u8]>::as_ref(&bytes).to_vec())
            }
        }
    };
}

tuple!(A a, B b);
tuple!(A a, B b, C c);

#[cfg(test)]
mod tests {
    use std::cmp::Ordering;

    use super::*;

    /// Ordered bytes compare as redb compares the keys, and decode to redb's bytes.
    fn agree<K: OrderedKey>(keys: &[K::SelfType<'_>]) {
        for a in keys {
            let ordered = K::encode(a);
            let redb = K::as_bytes(a).as_ref().to_vec();
            assert_eq!(K::decode(&ordered).as_deref(), Some(redb.as_slice()), "decodes back");
            assert!(ordered.as_slice() < ABOVE_EVERY_KEY.as_slice(), "below the top");
            for b in keys {
                let by_redb = K::compare(&redb, K::as_bytes(b).as_ref());
                let by_bytes = ordered.cmp(&K::encode(b));
                assert_eq!(by_bytes, by_redb, "orders as redb does");
            }
        }
    }

    #[test]
    fn integers_order_by_value() {
        agree::<u64>(&[0, 1, 255, 256, 1 << 40, u64::MAX]);
        agree::<(u64, u64)>(&[(0, 5), (1, 0), (1, u64::MAX), (256, 1), (u64::MAX, u64::MAX)]);
        agree::<(u64, u8, u64)>(&[(1, 0, 9), (1, 1, 0), (1, 255, u64::MAX), (2, 0, 0)]);
        agree::<(i64, u64)>(&[(i64::MIN, 0), (-1, 5), (0, 0), (1, 0), (i64::MAX, u64::MAX)]);
        agree::<(u64, u64, u64)>(&[(1, 2, 3), (1, 3, 0), (u64::MAX, u64::MAX, u64::MAX)]);
    }

    #[test]
    fn strings_order_by_bytes_whatever_follows_them() {
        let words = ["", "a", "a\0", "a\0b", "a\u{1}", "ab", "b", "é", "\u{10FFFF}"];
        agree::<&str>(&words);
        let keyed: Vec<(u64, &str)> = words.iter().flat_map(|w| [(1, *w), (2, *w)]).collect();
        agree::<(u64, &str)>(&keyed);
        let then_id: Vec<(u64, &str, u64)> = words.iter().flat_map(|w| [(1, *w, 0), (1, *w, 7)]).collect();
        agree::<(u64, &str, u64)>(&then_id);
        let two: Vec<(u64, &str, &str)> = words.iter().flat_map(|w| [(1, *w, "x"), (1, "a", *w)]).collect();
        agree::<(u64, &str, &str)>(&two);
        agree::<(u64, u64, &str)>(&[(1, 1, ""), (1, 1, "z"), (u64::MAX, u64::MAX, "\u{10FFFF}")]);
    }

    #[test]
    fn bytes_that_are_no_key_are_refused() {
        assert_eq!(<u64 as OrderedKey>::decode(&[1, 2, 3]), None);
        assert_eq!(<&str as OrderedKey>::decode(b"ab\0"), None);
        assert_eq!(<&str as OrderedKey>::decode(b"ab\0\x07"), None);
        assert_eq!(<(u64, u64) as OrderedKey>::decode(&[0; 17]), None);
        assert_eq!(<u64 as OrderedKey>::encode(&7).cmp(&vec![0, 0, 0, 0, 0, 0, 0, 7]), Ordering::Equal);
    }
}
