/**
 * The site's ActivityPub addresses, fixed (the peer and the tests rely on them): one actor, the
 * owner, at `/ap/users/owner`, with its inbox, outbox and followers; the shared inbox; each
 * post's Article at `/ap/posts/{id}`; activities under `/ap/activities/`.
 */

/** The actor's identifier in its URLs; its handle (preferredUsername) is the profile's. */
export const OWNER_IDENTIFIER = "owner";

export const AP_PATHS = {
  actor: "/ap/users/{identifier}",
  inbox: "/ap/users/{identifier}/inbox",
  sharedInbox: "/ap/inbox",
  outbox: "/ap/users/{identifier}/outbox",
  followers: "/ap/users/{identifier}/followers",
  article: "/ap/posts/{id}",
  nodeInfo: "/nodeinfo/2.1",
} as const;

export function socialUrls(siteUrl: string) {
  const actor = `${siteUrl}/ap/users/${OWNER_IDENTIFIER}`;
  return {
    actor,
    inbox: `${actor}/inbox`,
    sharedInbox: `${siteUrl}/ap/inbox`,
    outbox: `${actor}/outbox`,
    followers: `${actor}/followers`,
    keyId: `${actor}#main-key`,
    article: (postId: number) => `${siteUrl}/ap/posts/${postId}`,
    activity: (kind: string, name: string) => `${siteUrl}/ap/activities/${kind}/${name}`,
  };
}
