//! Work spread over the cores, results in order: install checks and
//! stages skills this way, and puts them in place one at a time after.

/// `work` applied to each of `items` on up to as many threads as there
/// are cores (at most 8), the results in the order of `items`.
pub(super) fn in_parallel<T: Send, R: Send>(items: Vec<T>, work: impl Fn(T) -> R + Sync) -> Vec<R> {
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(8)
        .min(items.len());
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
            .flat_map(|w| w.join().expect("an install thread panicked"))
            .collect()
    });
    done.sort_by_key(|(at, _)| *at);
    done.into_iter().map(|(_, result)| result).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_come_back_in_the_order_of_the_items() {
        let items: Vec<u64> = (0..500).collect();
        // Uneven work, so that threads finish out of order.
        let results = in_parallel(items.clone(), |n| {
            std::thread::sleep(std::time::Duration::from_micros((n * 7919) % 300));
            n * 2
        });
        assert_eq!(results, items.iter().map(|n| n * 2).collect::<Vec<_>>());
        assert!(in_parallel(Vec::<u8>::new(), |n| n).is_empty());
    }
}
