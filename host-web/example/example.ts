// A small typed front end over confab-web that touches every export. `tsc --strict` compiles
// it against the package's declarations in scripts/test, so a declaration that drifts from
// what the engine returns (or an export that loses its types) fails the build.
import {
  Client,
  LiveState,
  applyEvent,
  checkNarrow,
  customEmojiFromRealmEmoji,
  featureLevel,
  renderMarkdown,
  renderMessage,
  type Anchor,
  type ChannelSummary,
  type ChatMessage,
  type Changes,
  type ConnectionState,
  type Conversation,
  type Destination,
  type EmojiChoice,
  type GroupSummary,
  type MessageActions,
  type MessageEdit,
  type QueuedOperation,
  type RefusedOperation,
  type SearchSuggestion,
  type MessagesPage,
  type NarrowTerm,
  type OrganizationSnapshot,
  type OutboxEntry,
  type RegisterState,
  type Rendering,
  type ServerEvent,
  type SessionCredentials,
  type TopicSummary,
  type TypingNotice,
  type UserSummary,
} from "confab-web";

function describe(message: ChatMessage): string {
  const reactions = message.reactions.map((r) => r.emoji_name).join(" ");
  return `${message.sender_full_name} in ${message.subject}: ${message.content} ${reactions}`;
}

function channelLine(channel: ChannelSummary, topics: TopicSummary[]): string {
  const unreadTopics = topics.filter((t) => t.unread_count > 0 && !t.muted).length;
  return `#${channel.name} (${channel.unread_count} unread, ${channel.mention_count} mentions, ${unreadTopics} topics)`;
}

function redraw(client: Client, changes: Changes): void {
  if (changes.resync) console.log("everything changed");
  for (const streamId of changes.channels) {
    const channel = client.channels().find((c) => c.stream_id === streamId);
    if (channel) console.log(channelLine(channel, client.topics(streamId)));
  }
  for (const topic of changes.topics) console.log(`topic ${topic.stream_id}/${topic.topic}`);
  for (const key of changes.narrows) console.log(`narrow ${key}`);
  const refused: RefusedOperation[] = changes.refused_operations;
  for (const r of refused) console.log(`undone: ${r.operation.op} (${r.error.msg})`);
  const connection: ConnectionState | undefined = changes.connection;
  if (connection === "offline") console.log("offline: sends wait in the outbox");
}

async function session(credentials: SessionCredentials): Promise<void> {
  const client = new Client(credentials, { maxRetryMs: 10_000 });
  const unsubscribe: () => void = client.onChange((changes) => redraw(client, changes));
  await client.start();
  // A browser knows when the network is back: no need to wait out the backoff.
  globalThis.addEventListener?.("online", () => client.reconnect());
  console.log(client.userId(), client.connection(), client.credentials().site);

  const channels: ChannelSummary[] = client.channels();
  const general = channels[0];
  if (general) {
    const topics: TopicSummary[] = await client.fetchTopics(general.stream_id);
    console.log(channelLine(general, topics));
    const narrow: NarrowTerm[] = [{ operator: "channel", operand: general.stream_id }];
    const anchor: Anchor = "first_unread";
    const page: MessagesPage = await client.messages(narrow, anchor, 50, 50);
    page.messages.forEach((m) => console.log(describe(m)));
    console.log(client.narrowKey(narrow), page.from_cache, page.found_oldest, page.found_newest);
    navigation(client, narrow);
    typeaheads(client, general.stream_id);

    const destination: Destination = { type: "channel", stream_id: general.stream_id, topic: "greetings" };
    const localId: string = client.send(destination, "Hello, **world**");
    const pending: OutboxEntry[] = client.outbox();
    console.log(localId, pending.map((entry) => entry.html));
    if (pending.some((entry) => entry.error)) client.discard(localId);

    // Shown at once, undone with the server's message if refused.
    const first = page.messages[0];
    if (first) {
      // Offer only what the server would allow.
      const allowed: MessageActions = client.messageActions(first.id);
      console.log(allowed.edit, allowed.delete, allowed.moveTopic, allowed.resolve);
      await client.markRead([first.id]);
      await client.setStarred(first.id, true);
      await client.addReaction(first.id, "octopus");
      await client.removeReaction(first.id, "octopus");
      const edit: MessageEdit = { topic: "renamed", propagateMode: "change_all" };
      await client.editMessage(first.id, edit).catch((e: Error) => console.log(e.message));
      await client.deleteMessage(first.id);
    }
    const queued: QueuedOperation[] = client.pendingOperations();
    console.log(queued.map((q) => q.operation.op));
  }

  const people: UserSummary[] = client.users();
  const dms: Conversation[] = client.conversations();
  const typing: TypingNotice[] = client.typing();
  console.log(people.length, dms.length, typing.length, client.ownSettings()["twenty_four_hour_time"]);
  const preview: Rendering = client.renderPreview("Hi @**everyone**");
  console.log(preview.html, preview.stream_wildcard);

  const saved: Uint8Array = client.snapshot();
  unsubscribe();
  await client.close();
  const restored: Client = Client.restore(saved);
  console.log(restored.state()["max_message_id"]);
}

// The URL fragment is the page's state: narrows go in and come back out as Zulip writes them.
function navigation(client: Client, narrow: NarrowTerm[]): void {
  const hash: string = client.narrowToHash(narrow); // "#narrow/channel/12-general"
  const back: NarrowTerm[] | undefined = client.hashToNarrow(hash);
  if (client.hashToNarrow("#recent") === undefined) console.log("#recent is the front end's own view");
  console.log(hash, back?.length);
  // The search bar shows the narrow as text, and the text the user edits becomes a narrow.
  const text: string = client.searchText(narrow); // "channel:general"
  const searched: NarrowTerm[] = client.parseSearch(`${text} -is:resolved sender:me "fish and chips"`);
  console.log(text, client.narrowToHash(searched));
  for (const suggestion of client.searchSuggestions("channel:gen")) {
    const line: SearchSuggestion = suggestion;
    // An incomplete one (`sender:`) goes into the box; a complete one is a narrow to show.
    console.log(line.search, line.description, line.complete ? client.narrowToHash(line.narrow) : "…");
  }
}

// The compose box's typeaheads: `@` people and groups, `#` channels, the topic field, `:` emoji.
function typeaheads(client: Client, streamId: number): void {
  const people: UserSummary[] = client.completeUsers("ia", 8);
  const groups: GroupSummary[] = client.completeGroups("back", 5);
  const channels: ChannelSummary[] = client.completeChannels("gen", 8);
  const topics: string[] = client.completeTopics(streamId, "lun", 8);
  const emoji: EmojiChoice[] = client.completeEmoji("octo", 8);
  const picker: EmojiChoice[] = client.completeEmoji("", 5000);
  const custom = picker.filter((e) => e.reaction_type === "realm_emoji").map((e) => e.url);
  console.log(people.map((u) => `@**${u.full_name}|${u.user_id}**`), groups.map((g) => `@*${g.name}*`));
  console.log(channels.map((c) => `#**${c.name}**`), topics, emoji.map((e) => `:${e.name}:`), custom);
}

function offlineRules(state: RegisterState): void {
  // Every field may be left out.
  const organization: Partial<OrganizationSnapshot> = {
    users: [{ id: 8, full_name: "Iago", email: "iago@example.com", is_active: true }],
    custom_emoji: customEmojiFromRealmEmoji({}),
    realm_url: "https://chat.example.com",
  };
  const rendering: Rendering = renderMessage("@**Iago** :smile:", organization);
  console.log(rendering.html, rendering.mentioned_user_ids, renderMarkdown("*a channel description*"));
  const problem: string | undefined = checkNarrow([["channel", "general"]]);
  console.log(problem ?? "the narrow parses", featureLevel());
  const event: ServerEvent = { type: "typing", id: 1, op: "start" };
  const next: RegisterState = applyEvent(state, event, 8);
  const live = new LiveState(next, 8);
  live.applyAll([event]);
  live.apply(event);
  console.log(Object.keys(live.state()).length, live.get("max_message_id"));
}

async function main(): Promise<void> {
  const client: Client = await Client.login("https://chat.example.com", "iago@example.com", "secret");
  await session(client.credentials());
  offlineRules({});
}

void main();
