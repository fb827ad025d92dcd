//! Whether to colour human output: `--color`, then FORCE_COLOR, NO_COLOR, CLICOLOR_FORCE, CLICOLOR,
//! TERM=dumb and terminal detection, in that order (see the conventions doc).

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

#[cfg(test)]
mod tests {
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
