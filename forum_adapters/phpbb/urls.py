"""phpBB URL templates (``{base}`` is the board folder, ending in ``/``)."""

URLS = {
    "login": "{base}ucp.php?mode=login",
    "topic": "{base}viewtopic.php?t={topic}",
    "topic_at": "{base}viewtopic.php?p={post}",
    "topic_newest_first": "{base}viewtopic.php?t={topic}&sk=t&sd=d",
    "post": "{base}viewtopic.php?p={post}",
    "reply_form": "{base}posting.php?mode=reply&t={topic}",
    "inbox": "{base}ucp.php?i=pm&folder=inbox",
    "outbox": "{base}ucp.php?i=pm&folder=outbox",
    "sentbox": "{base}ucp.php?i=pm&folder=sentbox",
    "compose": "{base}ucp.php?i=pm&mode=compose",
}
