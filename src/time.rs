//! Calendar dates for seconds since the epoch (UTC, proleptic Gregorian),
//! without a date library: audit log names and SBOM creation times.

/// The date and time of `secs` since the epoch: year, month, day, hour,
/// minute, second.
pub(crate) fn civil(secs: u64) -> (i64, i64, i64, u64, u64, u64) {
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    // Howard Hinnant's civil-from-days.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day, rem / 3600, rem % 3600 / 60, rem % 60)
}

/// `YYYYMMDDTHHMMSSZ`: compact, for file names.
pub(crate) fn utc_stamp(secs: u64) -> String {
    let (y, mo, d, h, mi, s) = civil(secs);
    format!("{y:04}{mo:02}{d:02}T{h:02}{mi:02}{s:02}Z")
}

/// `YYYY-MM-DDTHH:MM:SSZ` (RFC 3339).
pub(crate) fn utc_rfc3339(secs: u64) -> String {
    let (y, mo, d, h, mi, s) = civil(secs);
    format!("{y:04}-{mo:02}-{d:02}T{h:02}:{mi:02}:{s:02}Z")
}

/// Now, in seconds since the epoch; `SOURCE_DATE_EPOCH` when it is set,
/// so that documents that record when they were made can be reproduced.
pub(crate) fn now_or_source_date() -> u64 {
    crate::env_vars::non_blank(crate::env_vars::SOURCE_DATE_EPOCH)
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_secs())
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_of_known_instants() {
        assert_eq!(utc_stamp(0), "19700101T000000Z");
        assert_eq!(utc_stamp(951_782_400), "20000229T000000Z");
        assert_eq!(utc_stamp(1_795_000_000), "20261118T110640Z");
        assert_eq!(utc_rfc3339(1_795_000_000), "2026-11-18T11:06:40Z");
    }
}
