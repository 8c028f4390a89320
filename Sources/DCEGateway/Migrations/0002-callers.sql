-- An idempotency slot belongs to a caller (its API key's name, or 'anonymous' without authentication): the same
-- request id from two callers is two requests. Rows from before callers were known belong to ''.
ALTER TABLE dce_idempotency ADD COLUMN caller text NOT NULL DEFAULT '';
ALTER TABLE dce_idempotency DROP CONSTRAINT dce_idempotency_pkey;
ALTER TABLE dce_idempotency ADD PRIMARY KEY (caller, request_id);
-- Who each accepted request came from.
ALTER TABLE dce_acceptances ADD COLUMN caller text NOT NULL DEFAULT '';
