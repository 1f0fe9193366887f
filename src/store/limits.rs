//! The one set of limits on what a skill may hold: what `pack` and
//! `publish` accept is what every install accepts (extraction, staging a
//! path or git skill, copying a cached tree, a download's size), so a
//! published package never turns out uninstallable.
//!
//! The number of files and the compression ratio are fixed; the unpacked
//! size can be raised with `--max-skill-size` on the commands that pack,
//! publish or install.

/// Most files a skill may hold.
pub(crate) const MAX_FILES: usize = 10_000;
/// Most bytes a skill's files may hold together, unless
/// `--max-skill-size` says otherwise (256 MiB).
pub(crate) const DEFAULT_MAX_SIZE: u64 = 256 * 1024 * 1024;
/// Highest inflated/compressed ratio of a file that inflates past 1 MiB:
/// beyond it, an archive is taken for a zip bomb.
pub(crate) const MAX_RATIO: u64 = 200;
/// The flag that raises [`Limits::max_total_bytes`].
pub(crate) const SIZE_FLAG: &str = "--max-skill-size";

/// Bytes an archive may spend per file beyond the file's own bytes: zip
/// headers and names, or tar headers, long-name headers and padding.
const ARCHIVE_OVERHEAD_PER_FILE: u64 = 4 * 1024;

/// Resource limits of a skill, checked when it is packed and whenever it
/// is installed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Most entries an archive may hold.
    pub max_entries: usize,
    /// Most bytes all entries may inflate to.
    pub max_total_bytes: u64,
    /// Highest inflated/compressed ratio for an entry that inflates past 1 MiB.
    pub max_ratio: u64,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_entries: MAX_FILES,
            max_total_bytes: DEFAULT_MAX_SIZE,
            max_ratio: MAX_RATIO,
        }
    }
}

impl Limits {
    /// The default limits, with the size limit `max_size` when given
    /// (`--max-skill-size`).
    pub(crate) fn with_max_size(max_size: Option<u64>) -> Limits {
        Limits {
            max_total_bytes: max_size.unwrap_or(DEFAULT_MAX_SIZE),
            ..Limits::default()
        }
    }

    /// The most bytes an archive of a skill within these limits can take
    /// (files that do not compress, with every header): more from a
    /// server is refused before it is written out in full.
    pub(crate) fn max_archive_bytes(&self) -> u64 {
        self.max_total_bytes
            .saturating_add(self.max_total_bytes / 512)
            .saturating_add((self.max_entries as u64 + 2).saturating_mul(ARCHIVE_OVERHEAD_PER_FILE))
    }
}

/// A size as people write it: `512MiB`, `1GB`, `300 MB`, `2GiB`, `1048576`
/// (bytes). Units: B, KB/MB/GB/TB (powers of 1000) and KiB/MiB/GiB/TiB
/// (powers of 1024), any case, with or without a space.
pub(crate) fn parse_size(text: &str) -> Result<u64, String> {
    let text = text.trim();
    let split = text
        .find(|c: char| !c.is_ascii_digit() && c != '.')
        .unwrap_or(text.len());
    let (number, unit) = text.split_at(split);
    let unit = unit.trim().to_ascii_lowercase();
    let factor: u64 = match unit.as_str() {
        "" | "b" => 1,
        "k" | "kb" => 1000,
        "m" | "mb" => 1000_u64.pow(2),
        "g" | "gb" => 1000_u64.pow(3),
        "t" | "tb" => 1000_u64.pow(4),
        "kib" => 1 << 10,
        "mib" => 1 << 20,
        "gib" => 1 << 30,
        "tib" => 1 << 40,
        _ => {
            return Err(format!(
                "unknown unit '{unit}' in '{text}': use B, KB, MB, GB, TB, KiB, MiB, GiB or TiB"
            ));
        }
    };
    let invalid = || format!("'{text}' is not a size (say 512MiB or 1GB)");
    let bytes = match number.split_once('.') {
        None => number
            .parse::<u64>()
            .map_err(|_| invalid())?
            .checked_mul(factor),
        Some(_) => {
            let value: f64 = number.parse().map_err(|_| invalid())?;
            let bytes = value * factor as f64;
            (bytes.is_finite() && bytes < u64::MAX as f64).then_some(bytes as u64)
        }
    };
    match bytes {
        Some(0) => Err(format!("'{text}' is no size a skill could have")),
        Some(bytes) => Ok(bytes),
        None => Err(format!("'{text}' is too large")),
    }
}

/// A byte count for people: `256 MiB` when it is a whole number of KiB,
/// MiB, GiB or TiB, `1.5 GB`-style otherwise, with the exact count
/// beside it when rounded.
pub(crate) fn show_size(bytes: u64) -> String {
    const UNITS: [(u64, &str); 4] = [
        (1 << 40, "TiB"),
        (1 << 30, "GiB"),
        (1 << 20, "MiB"),
        (1 << 10, "KiB"),
    ];
    for (size, unit) in UNITS {
        if bytes >= size && bytes.is_multiple_of(size) {
            return format!("{} {unit}", bytes / size);
        }
    }
    for (size, unit) in UNITS {
        if bytes >= size {
            return format!("{:.1} {unit} ({bytes} bytes)", bytes as f64 / size as f64);
        }
    }
    format!("{bytes} bytes")
}

/// A value for `--max-skill-size` that takes `at_least` bytes: the next
/// power of two, written as the flag takes it (`4MiB`, `512MiB`, `2GiB`).
pub(crate) fn suggest_size(at_least: u64) -> String {
    let size = at_least
        .max(1 << 20)
        .checked_next_power_of_two()
        .unwrap_or(u64::MAX);
    match size >= 1 << 30 {
        true => format!("{}GiB", size >> 30),
        false => format!("{}MiB", size >> 20),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_parse_in_both_kinds_of_unit() {
        assert_eq!(parse_size("512MiB").unwrap(), 512 << 20);
        assert_eq!(parse_size("1GB").unwrap(), 1_000_000_000);
        assert_eq!(parse_size("1 gib").unwrap(), 1 << 30);
        assert_eq!(parse_size("300 MB").unwrap(), 300_000_000);
        assert_eq!(parse_size("1.5GiB").unwrap(), 3 << 29);
        assert_eq!(parse_size("4096").unwrap(), 4096);
        assert_eq!(parse_size("10k").unwrap(), 10_000);
        assert!(parse_size("").is_err());
        assert!(parse_size("0MiB").is_err());
        assert!(
            parse_size("12 parsecs")
                .unwrap_err()
                .contains("unknown unit")
        );
        assert!(parse_size("MiB").is_err());
        assert!(
            parse_size("99999999999TiB")
                .unwrap_err()
                .contains("too large")
        );
    }

    #[test]
    fn sizes_show_in_the_largest_whole_unit() {
        assert_eq!(show_size(DEFAULT_MAX_SIZE), "256 MiB");
        assert_eq!(show_size(1 << 30), "1 GiB");
        assert_eq!(show_size(1000), "1000 bytes");
        assert_eq!(show_size(300_000_000), "286.1 MiB (300000000 bytes)");
    }

    #[test]
    fn suggested_sizes_take_what_was_asked_and_parse() {
        assert_eq!(suggest_size(2 << 20), "2MiB");
        assert_eq!(suggest_size((2 << 20) + 1), "4MiB");
        assert_eq!(suggest_size(300_000_000), "512MiB");
        assert_eq!(suggest_size(700 << 20), "1GiB");
        assert_eq!(suggest_size(5 << 30), "8GiB");
        assert_eq!(suggest_size(10), "1MiB");
        assert!(parse_size(&suggest_size(300_000_000)).unwrap() >= 300_000_000);
    }

    #[test]
    fn an_archive_may_outgrow_its_files_by_its_headers_alone() {
        let limits = Limits::default();
        assert!(limits.max_archive_bytes() > limits.max_total_bytes);
        assert!(limits.max_archive_bytes() < limits.max_total_bytes + 64 * 1024 * 1024);
        assert_eq!(
            Limits::with_max_size(Some(1 << 30)).max_total_bytes,
            1 << 30
        );
        assert_eq!(Limits::with_max_size(None), limits);
    }
}
