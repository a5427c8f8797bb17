//! Time zone names as Zulip accepts and stores them: any name of the IANA database (zones and
//! links, what Python's `zoneinfo.available_timezones()` lists), a link stored as the zone it
//! stands for (Zulip's `canonicalize_timezone`). The table is generated (`data.rs`).

mod data;

/// Whether Zulip accepts `name` as a time zone.
pub fn is_known(name: &str) -> bool {
    data::ZONES.binary_search(&name).is_ok()
}

/// The zone a name stands for: a link's target, or the name itself.
pub fn canonical(name: &str) -> &str {
    match data::LINKS.binary_search_by(|(alias, _)| alias.cmp(&name)) {
        Ok(at) => data::LINKS[at].1,
        Err(_) => name,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_checked_and_links_resolved() {
        assert!(is_known("America/New_York"));
        assert!(is_known("Asia/Calcutta"));
        assert!(is_known("UTC"));
        assert!(!is_known(""));
        assert!(!is_known("Mars/Olympus_Mons"));
        assert!(!is_known("america/new_york"));
        assert_eq!(canonical("Asia/Calcutta"), "Asia/Kolkata");
        assert_eq!(canonical("US/Eastern"), "America/New_York");
        assert_eq!(canonical("Europe/Paris"), "Europe/Paris");
    }

    #[test]
    fn the_tables_are_sorted_for_binary_search() {
        assert!(data::ZONES.windows(2).all(|w| w[0] < w[1]));
        assert!(data::LINKS.windows(2).all(|w| w[0].0 < w[1].0));
        assert!(data::LINKS.iter().all(|(_, zone)| is_known(zone)));
    }
}
