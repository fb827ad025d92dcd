//! Packs the allocations a caller marks as long-lived (file texts, trees' node arrays) into
//! shared chunks, instead of one allocation each from the process's allocator.
//!
//! Why: an allocator with size classes (mimalloc has four per doubling) rounds every block up to
//! its class, about 10% on average. A check keeps tens of thousands of file texts and node arrays
//! alive to its end, so on the large benchmark fleet that rounding alone is 5 MiB of texts and
//! about as much again of nodes. Packed blocks are laid end to end, with no rounding beyond
//! alignment.
//!
//! How: [`Packing`] wraps the process's allocator. Inside [`packed`], a thread's allocations of
//! at most [`MAX_PIECE`] bytes are carved from that thread's current chunk (256 KiB) of one
//! address range reserved at the first use. Every chunk counts the blocks it holds, plus one
//! while a thread still carves from it; the last free returns its pages to the system and the
//! chunk to a free list. Any thread may free any block: a free tells a packed block from
//! another by its address alone. Outside [`packed`], or where the range cannot be reserved (not
//! Linux, or a system that refuses the reservation), everything goes to the wrapped allocator.
//!
//! A freed block's space in a chunk is not reused until the whole chunk is free, so only
//! allocations that live about as long as their neighbours belong in [`packed`]: the texts
//! and trees a check keeps to its end, not the scratch of building them.

use std::alloc::{GlobalAlloc, Layout};
use std::cell::Cell;
use std::sync::atomic::{AtomicBool, Ordering};

/// The largest allocation packed: a block that does not fit in the rest of its thread's chunk
/// leaves that rest unused, so blocks stay small beside a chunk (at least eight fit in one).
pub const MAX_PIECE: usize = 32 << 10;

/// Runs `f` with this thread's allocations of at most [`MAX_PIECE`] bytes packed in shared
/// chunks, when the process's global allocator is a [`Packing`] (elsewhere, tests and tools, it
/// only runs `f`).
pub fn packed<T>(f: impl FnOnce() -> T) -> T {
    // Here, outside the allocator, where registering a thread-exit destructor may allocate.
    // (Packing from another thread-exit destructor, after this one ran, keeps that one chunk.)
    let _ = LET_GO_AT_EXIT.try_with(|_| ());
    struct Restore(bool);
    impl Drop for Restore {
        fn drop(&mut self) {
            ON.with(|on| on.set(self.0));
        }
    }
    let _restore = Restore(ON.with(|on| on.replace(true)));
    f()
}

thread_local! {
    /// Whether this thread is inside [`packed`]. Constant-initialized with nothing to drop, so
    /// reading it from the allocator never allocates.
    static ON: Cell<bool> = const { Cell::new(false) };
    /// This thread's current chunk and the offset of its first free byte ([`NONE`]: no chunk).
    static CURRENT: Cell<(u32, u32)> = const { Cell::new((NONE, 0)) };
}

thread_local! {
    /// Lets go of the thread's current chunk when the thread ends, so a thread that packed and
    /// ended does not keep a chunk for the rest of the process.
    static LET_GO_AT_EXIT: LetGo = const { LetGo };
}

/// See [`LET_GO_AT_EXIT`].
struct LetGo;

impl Drop for LetGo {
    fn drop(&mut self) {
        let (chunk, _) = CURRENT.with(|current| current.replace((NONE, 0)));
        if chunk != NONE {
            region::release(chunk);
        }
    }
}

/// No chunk.
const NONE: u32 = u32::MAX;

/// A process's allocator `A`, with [`packed`] allocations carved from shared chunks.
pub struct Packing<A>(pub A);

// SAFETY: every block is either carved from a chunk (a range of the reserved region no other
// live block overlaps, see `carve`) or comes from `A` and goes back to `A`; a block is told
// apart by its address (`region::chunk_of`): `A` never hands out addresses of the region,
// which is mapped for this crate alone.
unsafe impl<A: GlobalAlloc> GlobalAlloc for Packing<A> {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if let Some(p) = carve(layout) {
            return p;
        }
        // SAFETY: the caller's contract, passed on.
        unsafe { self.0.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if let Some(p) = carve(layout) {
            // SAFETY: `p` is a fresh block of `layout.size()` bytes.
            unsafe { std::ptr::write_bytes(p, 0, layout.size()) };
            return p;
        }
        // SAFETY: the caller's contract, passed on.
        unsafe { self.0.alloc_zeroed(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        match region::chunk_of(ptr) {
            Some(chunk) => region::release(chunk),
            // SAFETY: a block outside the region came from `A` with this layout.
            None => unsafe { self.0.dealloc(ptr, layout) },
        }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: the caller's contract: `layout.align()` with `new_size` is a valid layout.
        let new = unsafe { Layout::from_size_align_unchecked(new_size, layout.align()) };
        if region::chunk_of(ptr).is_none() && !wants_packing(new) {
            // SAFETY: the caller's contract, passed on.
            return unsafe { self.0.realloc(ptr, layout, new_size) };
        }
        // A packed block never grows in place, and a block [`packed`] asks for moves into a
        // chunk: a new block, the bytes copied, the old one freed.
        // SAFETY: `new` has a non-zero size (the caller's contract).
        let moved = unsafe { self.alloc(new) };
        if !moved.is_null() {
            // SAFETY: both blocks hold at least the smaller size and do not overlap (the new
            // one is live and distinct from the old, which is freed only after the copy).
            unsafe {
                std::ptr::copy_nonoverlapping(ptr, moved, layout.size().min(new_size));
                self.dealloc(ptr, layout);
            }
        }
        moved
    }
}

/// From now on nothing is packed, for a process that runs on (the editor's server): its
/// blocks are freed and made again edit after edit, and a chunk stays as long as any block in
/// it, so the few blocks of each edit that stay would hold chunks of dead ones.
pub fn stop() {
    STOPPED.store(true, Ordering::Relaxed);
}

/// See [`stop`].
static STOPPED: AtomicBool = AtomicBool::new(false);

/// Packing again after [`stop`], for the test of it.
#[cfg(test)]
fn resume() {
    STOPPED.store(false, Ordering::Relaxed);
}

/// Whether this thread packs a block of `layout` now.
fn wants_packing(layout: Layout) -> bool {
    layout.size() <= MAX_PIECE
        && layout.align() <= 4096
        && ON.with(Cell::get)
        && !STOPPED.load(Ordering::Relaxed)
}

/// A block of `layout` from this thread's current chunk (a new chunk when it is full), or
/// `None` when the block is not packed or no chunk is left.
fn carve(layout: Layout) -> Option<*mut u8> {
    if !wants_packing(layout) {
        return None;
    }
    let base = region::base()?;
    let (size, align) = (layout.size(), layout.align());
    CURRENT.with(|current| {
        let (mut chunk, mut offset) = current.get();
        loop {
            if chunk != NONE {
                let start = (offset as usize).next_multiple_of(align);
                if start + size <= region::CHUNK {
                    current.set((chunk, (start + size) as u32));
                    region::hold(chunk);
                    return Some((base + chunk as usize * region::CHUNK + start) as *mut u8);
                }
                // Full: this thread lets go of it (its blocks keep it until they are freed).
                current.set((NONE, 0));
                region::release(chunk);
            }
            chunk = region::take()?;
            offset = 0;
            current.set((chunk, 0));
        }
    })
}

/// The reserved address range and its chunks' counts.
mod region {
    use std::sync::atomic::{fence, AtomicU32, AtomicUsize, Ordering};
    use std::sync::{Mutex, OnceLock};

    /// Bytes per chunk.
    pub(crate) const CHUNK: usize = 256 << 10;
    /// Chunks in the region (16 GiB of addresses; only chunks in use take memory).
    const CHUNKS: usize = 1 << 16;

    /// The region's start, when it was reserved.
    static BASE: OnceLock<Option<usize>> = OnceLock::new();
    /// Per chunk: the blocks carved from it and not freed, plus one while a thread carves.
    static COUNTS: [AtomicU32; CHUNKS] = [const { AtomicU32::new(0) }; CHUNKS];
    /// The first chunk never used.
    static FRESH: AtomicUsize = AtomicUsize::new(0);
    /// Chunks used and wholly freed since (their pages returned), to be taken again.
    static FREE: Mutex<Stack> = Mutex::new(Stack {
        len: 0,
        items: [0; CHUNKS],
    });

    /// A fixed stack, so the free list never allocates from inside the allocator.
    struct Stack {
        len: usize,
        items: [u32; CHUNKS],
    }

    /// The region's start, reserved at the first call (`None`: it could not be).
    pub(crate) fn base() -> Option<usize> {
        *BASE.get_or_init(reserve)
    }

    #[cfg(target_os = "linux")]
    fn reserve() -> Option<usize> {
        // SAFETY: a new private mapping with no access; it aliases nothing.
        let p = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                CHUNK * CHUNKS,
                libc::PROT_NONE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE,
                -1,
                0,
            )
        };
        (p != libc::MAP_FAILED).then_some(p as usize)
    }

    /// Makes the chunk at `addr` readable and writable (its pages are taken when touched).
    #[cfg(target_os = "linux")]
    fn commit(addr: usize) -> bool {
        // SAFETY: `addr` is a chunk of the reserved region that no block lies in yet.
        unsafe {
            libc::mprotect(
                addr as *mut libc::c_void,
                CHUNK,
                libc::PROT_READ | libc::PROT_WRITE,
            ) == 0
        }
    }

    /// Returns the pages of the chunk at `addr` to the system (they read as zeros again).
    #[cfg(target_os = "linux")]
    fn decommit(addr: usize) {
        // SAFETY: `addr` is a chunk of the reserved region in which no live block lies.
        unsafe {
            libc::madvise(addr as *mut libc::c_void, CHUNK, libc::MADV_DONTNEED);
        }
    }

    #[cfg(not(target_os = "linux"))]
    fn reserve() -> Option<usize> {
        None
    }

    #[cfg(not(target_os = "linux"))]
    fn commit(_: usize) -> bool {
        false
    }

    #[cfg(not(target_os = "linux"))]
    fn decommit(_: usize) {}

    /// The chunk `ptr` lies in, when it lies in the region.
    #[inline]
    pub(crate) fn chunk_of(ptr: *mut u8) -> Option<u32> {
        // Before the first packed block the region is not reserved and nothing lies in it.
        let base = (*BASE.get()?)?;
        let offset = (ptr as usize).wrapping_sub(base);
        (offset < CHUNK * CHUNKS).then_some((offset / CHUNK) as u32)
    }

    /// How many blocks `chunk` holds (with the carving thread's hold).
    #[cfg(test)]
    pub(crate) fn count(chunk: u32) -> u32 {
        COUNTS[chunk as usize].load(Ordering::Acquire)
    }

    /// One more block (or the carving thread's hold) in `chunk`.
    pub(crate) fn hold(chunk: u32) {
        COUNTS[chunk as usize].fetch_add(1, Ordering::Relaxed);
    }

    /// One block fewer in `chunk`: the last returns its pages and puts it on the free list.
    pub(crate) fn release(chunk: u32) {
        if COUNTS[chunk as usize].fetch_sub(1, Ordering::Release) != 1 {
            return;
        }
        // Every use of the chunk's blocks happened before their frees, which happened before
        // this: the chunk may be emptied.
        fence(Ordering::Acquire);
        if let Some(base) = base() {
            decommit(base + chunk as usize * CHUNK);
        }
        let mut free = FREE.lock().unwrap_or_else(|e| e.into_inner());
        let len = free.len;
        // Each chunk is on the list at most once, so the list never overflows.
        if let Some(slot) = free.items.get_mut(len) {
            *slot = chunk;
            free.len = len + 1;
        }
    }

    /// A chunk to carve from, held once for the carving thread; `None` when none is left.
    pub(crate) fn take() -> Option<u32> {
        let base = base()?;
        let reused = {
            let mut free = FREE.lock().unwrap_or_else(|e| e.into_inner());
            free.len.checked_sub(1).map(|len| {
                free.len = len;
                free.items[len]
            })
        };
        let chunk = match reused {
            Some(chunk) => chunk,
            None => {
                let chunk = FRESH.fetch_add(1, Ordering::Relaxed);
                if chunk >= CHUNKS {
                    FRESH.store(CHUNKS, Ordering::Relaxed);
                    return None;
                }
                if !commit(base + chunk * CHUNK) {
                    return None;
                }
                chunk as u32
            }
        };
        COUNTS[chunk as usize].store(1, Ordering::Relaxed);
        Some(chunk)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::alloc::System;

    static PACKING: Packing<System> = Packing(System);

    /// The tests share the region's chunks: one at a time, so a chunk one test frees is not
    /// taken by another while the first counts it.
    static SERIAL: std::sync::Mutex<()> = std::sync::Mutex::new(());

    fn serial() -> std::sync::MutexGuard<'static, ()> {
        SERIAL.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn layout(size: usize, align: usize) -> Layout {
        Layout::from_size_align(size, align).expect("a layout")
    }

    /// A block [`packed`] asks for lies in the region, holds what is written to it, and its
    /// chunk's count falls back when it is freed; outside [`packed`] blocks come from the
    /// wrapped allocator.
    #[test]
    fn packed_blocks_come_from_chunks_and_others_from_the_wrapped_allocator() {
        let _serial = serial();
        let l = layout(100, 8);
        let inside = packed(|| unsafe { PACKING.alloc(l) });
        let outside = unsafe { PACKING.alloc(l) };
        let chunk = region::chunk_of(inside).expect("a packed block lies in the region");
        assert_eq!(region::chunk_of(outside), None);
        unsafe {
            std::ptr::write_bytes(inside, 0xAB, 100);
            assert_eq!(*inside.add(99), 0xAB);
        }
        let held = |c: u32| region::count(c);
        let before = held(chunk);
        unsafe { PACKING.dealloc(inside, l) };
        assert_eq!(held(chunk), before - 1);
        unsafe { PACKING.dealloc(outside, l) };
    }

    /// Blocks of one thread are laid end to end, aligned as asked, with no size class between.
    #[test]
    fn blocks_are_laid_end_to_end() {
        let _serial = serial();
        std::thread::spawn(|| {
            let ptrs: Vec<(*mut u8, Layout)> = packed(|| {
                [(24, 8), (3, 1), (40, 16), (5, 1)]
                    .iter()
                    .map(|&(s, a)| {
                        let l = layout(s, a);
                        (unsafe { PACKING.alloc(l) }, l)
                    })
                    .collect()
            });
            let at: Vec<usize> = ptrs.iter().map(|(p, _)| *p as usize).collect();
            // A new thread starts a chunk, whose start is aligned to a page.
            assert_eq!(at[0] % 4096, 0);
            assert_eq!(at[1] - at[0], 24);
            assert_eq!(at[2] - at[1], 8, "3 bytes, then up to a multiple of 16");
            assert_eq!(at[3] - at[2], 40);
            for (p, l) in ptrs {
                unsafe { PACKING.dealloc(p, l) };
            }
        })
        .join()
        .expect("the thread");
    }

    /// Larger blocks than [`MAX_PIECE`] are not packed; a packed block that grows moves out of
    /// its chunk with its bytes, and one [`packed`] asks to grow moves into one.
    #[test]
    fn large_blocks_go_to_the_wrapped_allocator_and_reallocation_moves_bytes() {
        let _serial = serial();
        let big = layout(MAX_PIECE + 1, 8);
        let p = packed(|| unsafe { PACKING.alloc(big) });
        assert_eq!(region::chunk_of(p), None);
        unsafe { PACKING.dealloc(p, big) };

        let small = layout(16, 8);
        let p = packed(|| unsafe { PACKING.alloc(small) });
        assert!(region::chunk_of(p).is_some());
        unsafe { std::ptr::copy_nonoverlapping(b"0123456789abcdef".as_ptr(), p, 16) };
        let grown = unsafe { PACKING.realloc(p, small, MAX_PIECE * 2) };
        assert_eq!(region::chunk_of(grown), None, "too large to pack");
        assert_eq!(
            unsafe { std::slice::from_raw_parts(grown, 16) },
            b"0123456789abcdef"
        );
        let moved_in = packed(|| unsafe { PACKING.realloc(grown, layout(MAX_PIECE * 2, 8), 8) });
        assert!(region::chunk_of(moved_in).is_some());
        assert_eq!(
            unsafe { std::slice::from_raw_parts(moved_in, 8) },
            b"01234567"
        );
        unsafe { PACKING.dealloc(moved_in, layout(8, 8)) };
    }

    /// After [`stop`] nothing is packed, inside [`packed`] or not; blocks packed before it are
    /// still freed into their chunk.
    #[test]
    fn nothing_is_packed_after_stop() {
        let _serial = serial();
        let l = layout(64, 8);
        let before = packed(|| unsafe { PACKING.alloc(l) });
        let chunk = region::chunk_of(before).expect("packed before the stop");
        stop();
        let after = packed(|| unsafe { PACKING.alloc(l) });
        resume();
        assert_eq!(region::chunk_of(after), None);
        let held = region::count(chunk);
        unsafe {
            PACKING.dealloc(after, l);
            PACKING.dealloc(before, l);
        }
        assert_eq!(region::count(chunk), held - 1);
    }

    /// Blocks carved by many threads and freed by others leave every chunk they filled free
    /// again once the carving threads have ended: nothing is lost, nothing freed twice.
    #[test]
    fn chunks_filled_by_ended_threads_are_free_once_their_blocks_are() {
        let _serial = serial();
        let l = layout(1000, 8);
        let blocks: Vec<usize> = std::thread::scope(|s| {
            let handles: Vec<_> = (0..4)
                .map(|t| {
                    s.spawn(move || {
                        packed(|| {
                            (0..2000)
                                .map(|i| {
                                    let p = unsafe { PACKING.alloc(l) };
                                    unsafe { std::ptr::write_bytes(p, (t * 31 + i) as u8, 1000) };
                                    p as usize
                                })
                                .collect::<Vec<_>>()
                        })
                    })
                })
                .collect();
            handles
                .into_iter()
                .flat_map(|h| h.join().expect("a carving thread"))
                .collect()
        });
        let chunks: std::collections::BTreeSet<u32> = blocks
            .iter()
            .map(|&p| region::chunk_of(p as *mut u8).expect("packed"))
            .collect();
        assert!(chunks.len() >= 4 * 2000 * 1000 / region::CHUNK);
        // Freed from other threads than the ones that carved them.
        std::thread::scope(|s| {
            for part in blocks.chunks(blocks.len() / 3 + 1) {
                s.spawn(move || {
                    for &p in part {
                        unsafe { PACKING.dealloc(p as *mut u8, l) };
                    }
                });
            }
        });
        for c in chunks {
            assert_eq!(region::count(c), 0, "chunk {c} is wholly free");
        }
    }
}
