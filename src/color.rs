//! Whether to colour human output: `--color`, then FORCE_COLOR, NO_COLOR, CLICOLOR_FORCE, CLICOLOR,
//! TERM=dumb and terminal detection, in that order (the no-color.org and CLICOLOR conventions).

/// `--color` choices.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColorChoice {
    /// Decide from the environment and the terminal.
    Auto,
    /// Always colour.
    Always,
    /// Never colour.
    Never,
}

/// Decides colour from the choice, an environment lookup and whether stdout is a terminal.
pub fn decide(choice: ColorChoice, env: impl Fn(&str) -> Option<String>, is_tty: bool) -> bool {
    let set = |name: &str| env(name).is_some_and(|v| !v.is_empty());
    match choice {
        ColorChoice::Always => return true,
        ColorChoice::Never => return false,
        ColorChoice::Auto => {}
    }
    if set("FORCE_COLOR") && env("FORCE_COLOR").as_deref() != Some("0") {
        return true;
    }
    if set("NO_COLOR") {
        return false;
    }
    if env("CLICOLOR_FORCE").is_some_and(|v| !v.is_empty() && v != "0") {
        return true;
    }
    if env("CLICOLOR").as_deref() == Some("0") {
        return false;
    }
    if env("TERM").as_deref() == Some("dumb") {
        return false;
    }
    is_tty
}

/// Whether the terminal can show Unicode box drawing: not with `TERM=dumb`, nor when the locale
/// (`LC_ALL`, else `LC_CTYPE`, else `LANG`) is set and names no UTF-8 encoding.
pub fn unicode(env: impl Fn(&str) -> Option<String>) -> bool {
    if env("TERM").as_deref() == Some("dumb") {
        return false;
    }
    let locale = ["LC_ALL", "LC_CTYPE", "LANG"]
        .iter()
        .find_map(|k| env(k).filter(|v| !v.is_empty()));
    match locale {
        None => true,
        Some(l) => {
            let l = l.to_ascii_lowercase();
            l.contains("utf-8") || l.contains("utf8")
        }
    }
}

/// The width to lay frames out in: `COLUMNS`, else the terminal's, else 100; at least 60.
pub fn width(env: impl Fn(&str) -> Option<String>, terminal: Option<usize>) -> usize {
    env("COLUMNS")
        .and_then(|c| c.trim().parse::<usize>().ok())
        .or(terminal)
        .unwrap_or(100)
        .clamp(60, 400)
}

#[cfg(test)]
mod tests {
    #[test]
    fn unicode_and_width_follow_the_environment() {
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |k: &str| {
                pairs
                    .iter()
                    .find(|(n, _)| *n == k)
                    .map(|(_, v)| v.to_string())
            }
        };
        assert!(super::unicode(env(&[])));
        assert!(super::unicode(env(&[("LANG", "en_US.UTF-8")])));
        assert!(!super::unicode(env(&[("TERM", "dumb")])));
        assert!(!super::unicode(env(&[
            ("LC_ALL", "C"),
            ("LANG", "en_US.UTF-8")
        ])));
        assert!(!super::unicode(env(&[("LANG", "POSIX")])));
        assert_eq!(super::width(env(&[("COLUMNS", "132")]), Some(80)), 132);
        assert_eq!(super::width(env(&[]), Some(80)), 80);
        assert_eq!(super::width(env(&[]), None), 100);
        assert_eq!(super::width(env(&[("COLUMNS", "20")]), None), 60);
    }

    use super::*;

    fn env<'a>(pairs: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
        move |k| {
            pairs
                .iter()
                .find(|(n, _)| *n == k)
                .map(|(_, v)| v.to_string())
        }
    }

    #[test]
    fn precedence() {
        assert!(decide(
            ColorChoice::Always,
            env(&[("NO_COLOR", "1")]),
            false
        ));
        assert!(!decide(
            ColorChoice::Never,
            env(&[("FORCE_COLOR", "1")]),
            true
        ));
        assert!(decide(
            ColorChoice::Auto,
            env(&[("FORCE_COLOR", "1"), ("NO_COLOR", "1")]),
            false
        ));
        assert!(!decide(ColorChoice::Auto, env(&[("NO_COLOR", "1")]), true));
        assert!(
            decide(ColorChoice::Auto, env(&[("NO_COLOR", "")]), true),
            "empty NO_COLOR does not count"
        );
        assert!(decide(
            ColorChoice::Auto,
            env(&[("CLICOLOR_FORCE", "1")]),
            false
        ));
        assert!(!decide(ColorChoice::Auto, env(&[("CLICOLOR", "0")]), true));
        assert!(!decide(ColorChoice::Auto, env(&[("TERM", "dumb")]), true));
        assert!(decide(ColorChoice::Auto, env(&[]), true));
        assert!(!decide(ColorChoice::Auto, env(&[]), false));
    }
}
