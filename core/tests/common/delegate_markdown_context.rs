//! For tests whose Markdown context is an organization with one answer changed: the methods
//! every `MarkdownContext` must have, passed to the wrapped organization (`self.0`), so that
//! the test's `impl` holds only the one it changes.

/// Expands, inside `impl MarkdownContext for Wrapper`, to the required methods, each
/// answered by `self.0`.
macro_rules! delegate_markdown_context {
    () => {
        fn user_by_id(&self, id: u64) -> Option<confab_core::markdown::MentionUser> {
            self.0.user_by_id(id)
        }
        fn users_by_full_name(&self, name: &str) -> Vec<confab_core::markdown::MentionUser> {
            self.0.users_by_full_name(name)
        }
        fn group_by_name(&self, name: &str) -> Option<confab_core::markdown::MentionGroup> {
            self.0.group_by_name(name)
        }
        fn stream_by_name(&self, name: &str) -> Option<confab_core::markdown::MentionStream> {
            self.0.stream_by_name(name)
        }
        fn custom_emoji(&self, name: &str) -> Option<confab_core::markdown::CustomEmoji> {
            self.0.custom_emoji(name)
        }
        fn linkifiers(&self) -> &[confab_core::markdown::Linkifier] {
            self.0.linkifiers()
        }
        fn realm_url(&self) -> &str {
            self.0.realm_url()
        }
    };
}
