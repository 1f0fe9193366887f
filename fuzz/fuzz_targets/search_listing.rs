//! The search listing (`search.jsonl`, one JSON line per package) is read
//! from any index server by `search`, so any text must be accepted or
//! refused without panicking. An accepted listing must be what `publish`
//! and `yank` write back (`index::listing::Listing`): its `to_text()` is
//! one line per package, sorted by name, that reads back as the same
//! listing and writes the same text again; and a package set or removed
//! is exactly that change.
#![no_main]

use libfuzzer_sys::fuzz_target;
use skillpkg::index::listing::{LISTING_FILE, Listing, ListingEntry};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(listing) = Listing::parse(text, LISTING_FILE) else {
        return;
    };
    let written = listing.to_text();
    let reread = Listing::parse(&written, LISTING_FILE)
        .unwrap_or_else(|e| panic!("a written listing does not parse: {e:#}\n{written}"));
    assert_eq!(
        reread, listing,
        "the listing changed on the way back:\n{written}"
    );
    assert_eq!(reread.to_text(), written, "to_text() is not stable");

    let entries: Vec<&ListingEntry> = listing.entries().collect();
    assert_eq!(
        written.lines().count(),
        entries.len(),
        "not one line per package:\n{written}"
    );
    assert!(
        entries.windows(2).all(|w| w[0].name < w[1].name),
        "not sorted by name without duplicates"
    );

    // What `search` does with each line.
    for entry in &entries {
        let haystack = format!("{} {}", entry.name, entry.desc).to_lowercase();
        let _ = haystack.contains(&entry.vers.to_lowercase());
    }

    // `publish` and `yank` set one package's line.
    if let Some(first) = entries.first() {
        let mut edited = listing.clone();
        edited.set(&first.name, None);
        assert_eq!(edited.entries().count(), entries.len() - 1);
        assert!(edited.entries().all(|e| e.name != first.name));
        edited.set(&first.name, Some((*first).clone()));
        assert_eq!(
            edited, listing,
            "removing and setting back a line changed the listing"
        );
        let again = Listing::parse(&edited.to_text(), LISTING_FILE).expect("a written listing");
        assert_eq!(again, listing);
    }
});
