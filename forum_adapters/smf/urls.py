"""SMF URL templates (``{base}`` is the script URL, ``.../index.php``)."""

URLS = {
    "login": "{base}?action=login",
    "topic": "{base}?topic={topic}.{start}",
    "topic_at": "{base}?topic={topic}.msg{msg}",
    "post": "{base}?msg={post}",
    "reply_form": "{base}?action=post;topic={topic}.0",
    "reply_form_after": "{base}?action=post;topic={topic}.0;last_msg={msg}",
    "pm_form": "{base}?action=pm;sa=send",
    "inbox": "{base}?action=pm;f=inbox;sort=date;desc;start=0",
    "sent": "{base}?action=pm;f=sent;sort=date;desc;start=0",
}
