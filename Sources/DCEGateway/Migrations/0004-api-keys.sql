-- The API keys callers present, when the gateway keeps its state in PostgreSQL (dce-gateway --api-keys with
-- --database-url): never a key, only its SHA-256, with its name, scopes, creation, last use and revocation.
CREATE TABLE dce_api_keys (
    name text PRIMARY KEY,
    scopes text[] NOT NULL,
    sha256 text NOT NULL UNIQUE,
    created_at timestamptz NOT NULL,
    last_used_at timestamptz,
    revoked_at timestamptz
);
