//! Paths as the tool that receives them would open them, and the protected sets they are
//! compared with. A path is resolved lexically (no I/O): `@` and `file://` forms the host
//! accepts, percent-decoding, `~`, `.`/`..`, the call's working directory, Unicode NFC. A glob
//! stays a pattern and is compared as one: `.e*` names every protected file it could match.

/// Where relative paths start and what `~` is.
#[derive(Debug, Clone, Default)]
pub struct PathContext<'a> {
    /// The call's working directory (`workdir`/`cwd` param, else the agent's workspace).
    pub cwd: Option<&'a str>,
    pub home: Option<&'a str>,
}
