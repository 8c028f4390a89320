-- The answers to accepted requests, by request id: a retry of the same request (same body digest) gets its
-- answer again, byte for byte; another request under the same id is refused. A row is written, with its answer,
-- in the transaction that records the acceptance, and is of no use after expires_at (an envelope that old is
-- refused by age), when the gateway deletes it.
CREATE TABLE dce_idempotency (
    request_id text PRIMARY KEY,
    digest bytea NOT NULL,
    status integer,
    body bytea,
    expires_at timestamptz NOT NULL
);
CREATE INDEX dce_idempotency_expires_at ON dce_idempotency (expires_at);
-- One row per request accepted: what an answer was given for. The gateway only adds to it.
CREATE TABLE dce_acceptances (
    id bigserial PRIMARY KEY,
    request_id text NOT NULL,
    schema text NOT NULL,
    accepted_at timestamptz NOT NULL,
    instance text NOT NULL
);
CREATE INDEX dce_acceptances_request_id ON dce_acceptances (request_id);
-- Every catalogue published, signed, as served: the row with the highest id is the one every instance serves.
CREATE TABLE dce_catalogues (
    id bigserial PRIMARY KEY,
    version text NOT NULL UNIQUE,
    expires_at timestamptz NOT NULL,
    body bytea NOT NULL,
    etag text NOT NULL,
    signature text NOT NULL,
    published_at timestamptz NOT NULL,
    published_by text NOT NULL
);
