//! Work spread over the cores, results in the order of the items: the one
//! home of skillpkg's parallel maps (installs check and stage skills,
//! discovery loads folders, the catalog reads which skills a model may see).

/// How many threads a parallel map uses at most: one per core, at most 8.
pub(crate) fn threads() -> usize {
    std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(8)
}

/// `work` applied to each of `items` on up to as many threads as there
/// are cores (at most 8), the results in the order of `items`.
pub(crate) fn map<T: Send, R: Send>(items: Vec<T>, work: impl Fn(T) -> R + Sync) -> Vec<R> {
    map_on(threads(), items, work)
}

/// How many threads a map of work that mostly waits on the network uses
/// at most, whatever the cores.
pub(crate) const NETWORK_THREADS: usize = 8;

/// `work` applied to each of `items` on up to `threads` threads, the
/// results in the order of `items`: for work that waits (on a registry,
/// say) more than it computes.
pub(crate) fn map_on<T: Send, R: Send>(
    threads: usize,
    items: Vec<T>,
    work: impl Fn(T) -> R + Sync,
) -> Vec<R> {
    let threads = threads.min(items.len());
    if threads <= 1 {
        return items.into_iter().map(work).collect();
    }
    let queue = std::sync::Mutex::new(items.into_iter().enumerate());
    let mut done: Vec<(usize, R)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut results = Vec::new();
                    loop {
                        let next = queue.lock().expect("work queue").next();
                        let Some((at, item)) = next else {
                            break results;
                        };
                        results.push((at, work(item)));
                    }
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().expect("a worker thread panicked"))
            .collect()
    });
    done.sort_by_key(|(at, _)| *at);
    done.into_iter().map(|(_, result)| result).collect()
}

/// `work` applied to each of `items` by reference, the results in the
/// order of `items`: on the calling thread when there are fewer than
/// `serial_below` items (spawning costs more than it saves), else on up to
/// [`threads`] threads, which take small chunks as they free up (items are
/// not all equally slow, and equal shares would leave one thread idle
/// while another finishes).
pub(crate) fn map_slice<T: Sync, R: Send>(
    items: &[T],
    serial_below: usize,
    work: impl Fn(&T) -> R + Sync,
) -> Vec<R> {
    const CHUNK: usize = 64;
    let threads = threads();
    if threads <= 1 || items.len() < serial_below.max(2) {
        return items.iter().map(work).collect();
    }
    let next = std::sync::atomic::AtomicUsize::new(0);
    let mut parts: Vec<(usize, Vec<R>)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|_| {
                let (next, work) = (&next, &work);
                scope.spawn(move || {
                    let mut done = Vec::new();
                    loop {
                        let start = next.fetch_add(CHUNK, std::sync::atomic::Ordering::Relaxed);
                        let Some(part) = items.get(start..(start + CHUNK).min(items.len())) else {
                            break done;
                        };
                        if part.is_empty() {
                            break done;
                        }
                        done.push((start, part.iter().map(work).collect()));
                    }
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("a worker thread panicked"))
            .collect()
    });
    parts.sort_unstable_by_key(|(start, _)| *start);
    let mut all = Vec::with_capacity(items.len());
    for (_, part) in parts {
        all.extend(part);
    }
    all
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_come_back_in_the_order_of_the_items() {
        let items: Vec<u64> = (0..500).collect();
        // Uneven work, so that threads finish out of order.
        let results = map(items.clone(), |n| {
            std::thread::sleep(std::time::Duration::from_micros((n * 7919) % 300));
            n * 2
        });
        assert_eq!(results, items.iter().map(|n| n * 2).collect::<Vec<_>>());
        assert!(map(Vec::<u8>::new(), |n| n).is_empty());
    }

    #[test]
    fn a_slice_maps_in_order_whether_split_or_not() {
        let items: Vec<u64> = (0..1000).collect();
        let slow = |n: &u64| {
            std::thread::sleep(std::time::Duration::from_micros((n * 7919) % 100));
            n * 3
        };
        let expected: Vec<u64> = items.iter().map(|n| n * 3).collect();
        assert_eq!(map_slice(&items, 64, slow), expected);
        assert_eq!(map_slice(&items, usize::MAX, slow), expected);
        assert!(map_slice(&[] as &[u64], 0, slow).is_empty());
    }
}
