//! [`List`]: the type of a `*` operand (the indexes of `OpAccessChain`, the operands of
//! `OpExtInst`, a struct's member types). Most such lists are short, so up to
//! [`List::INLINE`] items live in the value itself and only longer lists allocate:
//! decoding a module then allocates for few instructions.

use crate::__private::Vec;
use core::fmt;
use core::hash::{Hash, Hasher};
use core::ops::{Deref, DerefMut};

/// Items kept without allocating: three ids fit in the space of a `Vec`.
const INLINE: usize = 3;

/// A list of operands that keeps up to [`List::INLINE`] items without allocating. It
/// reads as a slice (`Deref<Target = [T]>`), and converts from and into `Vec<T>`,
/// arrays, slices and iterators.
///
/// ```
/// use spirv_core::{Id, List};
/// let mut indexes: List<Id> = [Id(4), Id(5)].into();
/// indexes.push(Id(6));
/// assert_eq!(indexes.len(), 3);
/// assert_eq!(indexes[2], Id(6));
/// assert_eq!(indexes, List::from(vec![Id(4), Id(5), Id(6)]));
/// ```
#[derive(Clone)]
pub struct List<T: Copy>(Repr<T>);

#[derive(Clone)]
enum Repr<T> {
    /// No items (and no value to fill the inline array with).
    Empty,
    /// The first `len` items are the list (the array is filled from the first).
    Inline {
        len: u8,
        items: [T; INLINE],
    },
    Heap(Vec<T>),
}

impl<T: Copy> List<T> {
    /// Items kept without allocating. Three ids fit in the space of a `Vec`.
    pub const INLINE: usize = INLINE;

    /// An empty list.
    pub fn new() -> Self {
        List(Repr::Empty)
    }
    /// The list of the first `len` (at most [`Self::INLINE`]) of `items`.
    pub(crate) fn inline(len: usize, items: [T; INLINE]) -> Self {
        List(Repr::Inline {
            len: len.min(INLINE) as u8,
            items,
        })
    }
    /// The items.
    pub fn as_slice(&self) -> &[T] {
        match &self.0 {
            Repr::Empty => &[],
            Repr::Inline { len, items } => &items[..usize::from(*len)],
            Repr::Heap(v) => v,
        }
    }
    /// The items, to change in place.
    pub fn as_mut_slice(&mut self) -> &mut [T] {
        match &mut self.0 {
            Repr::Empty => &mut [],
            Repr::Inline { len, items } => &mut items[..usize::from(*len)],
            Repr::Heap(v) => v,
        }
    }
    /// Appends an item.
    pub fn push(&mut self, item: T) {
        match &mut self.0 {
            Repr::Empty => {
                self.0 = Repr::Inline {
                    len: 1,
                    items: [item; INLINE],
                }
            }
            Repr::Inline { len, items } if usize::from(*len) < Self::INLINE => {
                items[usize::from(*len)] = item;
                *len += 1;
            }
            Repr::Inline { len, items } => {
                let mut v = Vec::with_capacity(usize::from(*len) * 2);
                v.extend_from_slice(&items[..usize::from(*len)]);
                v.push(item);
                self.0 = Repr::Heap(v);
            }
            Repr::Heap(v) => v.push(item),
        }
    }
    /// The items as a `Vec`.
    pub fn into_vec(self) -> Vec<T> {
        match self.0 {
            Repr::Empty => Vec::new(),
            Repr::Inline { len, items } => items[..usize::from(len)].to_vec(),
            Repr::Heap(v) => v,
        }
    }
}

impl<T: Copy> Default for List<T> {
    fn default() -> Self {
        List::new()
    }
}

impl<T: Copy> Deref for List<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        self.as_slice()
    }
}

impl<T: Copy> DerefMut for List<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        self.as_mut_slice()
    }
}

impl<T: Copy> From<&[T]> for List<T> {
    fn from(items: &[T]) -> Self {
        match items {
            [] => List(Repr::Empty),
            [first, ..] if items.len() <= Self::INLINE => {
                let mut inline = [*first; INLINE];
                inline[..items.len()].copy_from_slice(items);
                List(Repr::Inline {
                    len: items.len() as u8,
                    items: inline,
                })
            }
            _ => List(Repr::Heap(items.to_vec())),
        }
    }
}

impl<T: Copy> From<Vec<T>> for List<T> {
    fn from(items: Vec<T>) -> Self {
        match items.len() {
            n if n <= Self::INLINE => List::from(&items[..]),
            _ => List(Repr::Heap(items)),
        }
    }
}

impl<T: Copy, const N: usize> From<[T; N]> for List<T> {
    fn from(items: [T; N]) -> Self {
        List::from(&items[..])
    }
}

impl<T: Copy> From<List<T>> for Vec<T> {
    fn from(list: List<T>) -> Self {
        list.into_vec()
    }
}

impl<T: Copy> FromIterator<T> for List<T> {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        let mut list = List::new();
        list.extend(iter);
        list
    }
}

impl<T: Copy> Extend<T> for List<T> {
    fn extend<I: IntoIterator<Item = T>>(&mut self, iter: I) {
        for item in iter {
            self.push(item);
        }
    }
}

impl<'a, T: Copy> IntoIterator for &'a List<T> {
    type Item = &'a T;
    type IntoIter = core::slice::Iter<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

impl<'a, T: Copy> IntoIterator for &'a mut List<T> {
    type Item = &'a mut T;
    type IntoIter = core::slice::IterMut<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.as_mut_slice().iter_mut()
    }
}

impl<T: Copy> IntoIterator for List<T> {
    type Item = T;
    type IntoIter = alloc::vec::IntoIter<T>;
    fn into_iter(self) -> Self::IntoIter {
        self.into_vec().into_iter()
    }
}

impl<T: Copy + PartialEq> PartialEq for List<T> {
    fn eq(&self, other: &Self) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl<T: Copy + Eq> Eq for List<T> {}

impl<T: Copy + PartialEq> PartialEq<[T]> for List<T> {
    fn eq(&self, other: &[T]) -> bool {
        self.as_slice() == other
    }
}

impl<T: Copy + PartialEq> PartialEq<Vec<T>> for List<T> {
    fn eq(&self, other: &Vec<T>) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl<T: Copy + PartialEq, const N: usize> PartialEq<[T; N]> for List<T> {
    fn eq(&self, other: &[T; N]) -> bool {
        self.as_slice() == other
    }
}

impl<T: Copy + Hash> Hash for List<T> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.as_slice().hash(state);
    }
}

impl<T: Copy + fmt::Debug> fmt::Debug for List<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::List;
    use crate::__private::Vec;

    #[test]
    fn spills_to_the_heap_past_the_inline_length_and_keeps_order() {
        let mut list = List::new();
        let mut expected = Vec::new();
        for i in 0..10u32 {
            assert_eq!(list.as_slice(), &expected[..]);
            list.push(i);
            expected.push(i);
        }
        assert_eq!(list.clone().into_vec(), expected);
        assert_eq!(List::from(expected.clone()), list);
        assert_eq!(expected.iter().copied().collect::<List<u32>>(), list);
        let short: List<u32> = [1, 2].into();
        assert_eq!(short, [1, 2]);
        assert_eq!(List::<u32>::from(&[][..]), List::new());
    }
}
