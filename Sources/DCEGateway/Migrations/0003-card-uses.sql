-- Who presented which card (its fingerprint, never its number) when: the card-testing limits count the different
-- cards of a caller in the last minute and the different callers of a card in the last hour (CardVelocity).
CREATE TABLE dce_card_uses (
    caller text NOT NULL,
    card text NOT NULL,
    last_seen timestamptz NOT NULL,
    PRIMARY KEY (caller, card)
);
CREATE INDEX dce_card_uses_by_card ON dce_card_uses (card, last_seen);
CREATE INDEX dce_card_uses_by_age ON dce_card_uses (last_seen);
