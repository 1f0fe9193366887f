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

/// `work` applied to each of `items` on up to as many threads as there
/// are cores (at most 8), with `then` called on the calling thread on each
/// result in the order of `items`, as soon as it and every result before
/// it are in. When `then` fails, no further item is started, and its
/// error is returned once the items under way are done.
pub(super) fn in_parallel_then<T: Send, R: Send, E>(
    items: Vec<T>,
    work: impl Fn(T) -> R + Sync,
    mut then: impl FnMut(R) -> Result<(), E>,
) -> Result<(), E> {
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(8)
        .min(items.len());
    if threads <= 1 {
        return items.into_iter().try_for_each(|item| then(work(item)));
    }
    let queue = std::sync::Mutex::new(items.into_iter().enumerate());
    let (sender, results) = std::sync::mpsc::channel();
    std::thread::scope(|scope| {
        for _ in 0..threads {
            let (sender, queue, work) = (sender.clone(), &queue, &work);
            scope.spawn(move || {
                loop {
                    let next = queue.lock().expect("work queue").next();
                    let Some((at, item)) = next else { break };
                    // Gone: `then` failed, and nothing more is wanted.
                    if sender.send((at, work(item))).is_err() {
                        break;
                    }
                }
            });
        }
        drop(sender);
        let mut early = std::collections::BTreeMap::new();
        let mut next = 0;
        for (at, result) in results {
            early.insert(at, result);
            while let Some(result) = early.remove(&next) {
                next += 1;
                if let Err(e) = then(result) {
                    // Workers stop at their next item.
                    *queue.lock().expect("work queue") = Vec::new().into_iter().enumerate();
                    return Err(e);
                }
            }
        }
        Ok(())
    })
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

    #[test]
    fn then_sees_results_in_order_and_a_failure_stops_the_rest() {
        let items: Vec<u64> = (0..300).collect();
        let slow = |n: u64| {
            std::thread::sleep(std::time::Duration::from_micros((n * 7919) % 300));
            n * 2
        };
        let mut seen = Vec::new();
        in_parallel_then(items.clone(), slow, |n| {
            seen.push(n);
            Ok::<(), ()>(())
        })
        .unwrap();
        assert_eq!(seen, items.iter().map(|n| n * 2).collect::<Vec<_>>());
        let started = std::sync::atomic::AtomicUsize::new(0);
        let mut seen = Vec::new();
        let failed = in_parallel_then(
            items,
            |n| {
                started.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                slow(n)
            },
            |n| match n {
                20 => Err(n),
                _ => {
                    seen.push(n);
                    Ok(())
                }
            },
        );
        assert_eq!(failed, Err(20));
        assert_eq!(seen, (0..10).map(|n| n * 2).collect::<Vec<_>>());
        assert!(started.into_inner() < 300);
    }
}
