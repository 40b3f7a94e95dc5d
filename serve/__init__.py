"""`alienworlds serve`: the browser study (docs/serve.md).

A researcher creates a study (a world, a condition, a number of
participants) in a data directory and gets one private link per
participant plus one for the researcher's page. The server runs each
participant's episode with the same driver, protocol and append-only trace
as an agent's, and the same human agent as `aliencode play`; the
participant's browser supplies the replies.

Modules: `tokens` (the secrets in the links), `store` (the data directory),
`mailbox` (the hand-off between a question of the driver and an action
from HTTP), `web_player` (the person behind the browser, as the player of
episode.human_agent's human agent), `view`
(what a participant's page may see), `session` (one episode in a worker
thread), `limits` and `middleware` (rate and size limits), `pages` and
`app` (the ASGI application).
"""
