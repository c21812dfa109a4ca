//! `context`: the conversation so far, the message itself, metadata, channel, session key.
//! Text patterns are case-insensitive regexes, compiled at load.

use super::ParseEnv;
use crate::config::error::{index, Issues};
use crate::config::reader::{string_list, Obj};
use crate::context::Facts;
use crate::policy::glob::Glob;
use crate::policy::pattern::Pattern;

#[derive(Debug, Clone)]
pub struct ContextCondition {
    pub conversation_contains: Vec<Pattern>,
    pub message_contains: Vec<Pattern>,
    pub has_metadata: Vec<String>,
    pub channels: Vec<String>,
    pub session_key: Option<Glob>,
}

impl ContextCondition {
    pub fn parse(o: &Obj, env: &ParseEnv, issues: &mut Issues) -> Option<ContextCondition> {
        o.check_keys(
            &[
                "type",
                "conversationContains",
                "messageContains",
                "hasMetadata",
                "channel",
                "sessionKey",
            ],
            issues,
        );
        Some(ContextCondition {
            conversation_contains: patterns(o, "conversationContains", env, issues),
            message_contains: patterns(o, "messageContains", env, issues),
            has_metadata: string_list(o.get("hasMetadata"), &o.path_of("hasMetadata"), issues),
            channels: string_list(o.get("channel"), &o.path_of("channel"), issues),
            session_key: o.string("sessionKey", issues).map(|s| Glob::new(&s)),
        })
    }

    pub fn eval(&self, f: &Facts) -> bool {
        let conversation_ok = self.conversation_contains.is_empty()
            || f.conversation
                .iter()
                .any(|m| self.conversation_contains.iter().any(|re| re.is_match(m)));
        let message_ok = self.message_contains.is_empty()
            || f.req
                .message_content
                .as_deref()
                .is_some_and(|m| self.message_contains.iter().any(|re| re.is_match(m)));
        let metadata_ok = self
            .has_metadata
            .iter()
            .all(|k| f.req.metadata.as_ref().is_some_and(|m| m.contains_key(k)));
        let channel_ok = self.channels.is_empty()
            || f.req
                .channel
                .as_deref()
                .is_some_and(|c| self.channels.iter().any(|x| x == c));
        let session_ok = self
            .session_key
            .as_ref()
            .is_none_or(|g| g.matches(f.session_key));
        conversation_ok && message_ok && metadata_ok && channel_ok && session_ok
    }
}

fn patterns(o: &Obj, key: &str, env: &ParseEnv, issues: &mut Issues) -> Vec<Pattern> {
    let path = o.path_of(key);
    string_list(o.get(key), &path, issues)
        .iter()
        .enumerate()
        .filter_map(|(i, p)| env.pattern(p, &index(&path, i), true, issues))
        .collect()
}
