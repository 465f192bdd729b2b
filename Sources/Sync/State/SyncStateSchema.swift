/// The versioned layout of `sync.db`.
///
/// The file is marked with `PRAGMA application_id` (so another program's database is recognised and left
/// alone) and `PRAGMA user_version` (the schema version). A newer version than this build knows is refused
/// rather than guessed at; an older one is migrated in one transaction, step by step.
enum SyncStateSchema {
    /// "cbsy" as a big-endian 32-bit number.
    static let applicationID: Int64 = 0x6362_7379
    static let currentVersion: Int64 = 3

    /// Statements that take a database from version `index` to `index + 1`.
    static let migrations: [String] = [
        """
        CREATE TABLE pairs (
            name TEXT PRIMARY KEY NOT NULL,
            side_a TEXT NOT NULL,
            side_b TEXT NOT NULL,
            options TEXT NOT NULL,
            created_at REAL NOT NULL
        );
        CREATE TABLE items (
            id INTEGER PRIMARY KEY,
            pair TEXT NOT NULL REFERENCES pairs(name) ON DELETE CASCADE,
            id_a TEXT,
            id_b TEXT,
            hash_a TEXT,
            hash_b TEXT,
            series_key TEXT,
            updated_at REAL NOT NULL,
            CHECK (id_a IS NOT NULL OR id_b IS NOT NULL)
        );
        CREATE UNIQUE INDEX items_by_a ON items(pair, id_a) WHERE id_a IS NOT NULL;
        CREATE UNIQUE INDEX items_by_b ON items(pair, id_b) WHERE id_b IS NOT NULL;
        CREATE TABLE cursors (
            pair TEXT NOT NULL REFERENCES pairs(name) ON DELETE CASCADE,
            side TEXT NOT NULL CHECK (side IN ('a', 'b')),
            cursor TEXT NOT NULL,
            updated_at REAL NOT NULL,
            PRIMARY KEY (pair, side)
        );
        CREATE TABLE runs (
            pair TEXT PRIMARY KEY NOT NULL REFERENCES pairs(name) ON DELETE CASCADE,
            started_at REAL NOT NULL,
            finished_at REAL NOT NULL,
            outcome TEXT NOT NULL,
            counts TEXT NOT NULL,
            error TEXT
        );
        """,
        // v2: which side each item started on (so `--remove-copies` knows the copies), and the losing
        // versions of conflicts (never silently dropped).
        """
        ALTER TABLE items ADD COLUMN origin TEXT CHECK (origin IN ('a', 'b'));
        CREATE TABLE conflicts (
            id INTEGER PRIMARY KEY,
            pair TEXT NOT NULL REFERENCES pairs(name) ON DELETE CASCADE,
            item_id INTEGER REFERENCES items(id) ON DELETE SET NULL,
            detected_at REAL NOT NULL,
            winner TEXT NOT NULL CHECK (winner IN ('a', 'b')),
            reason TEXT NOT NULL,
            version_a TEXT NOT NULL,
            version_b TEXT NOT NULL
        );
        CREATE INDEX conflicts_by_pair ON conflicts(pair, detected_at);
        """,
        // v3: what each side's occurrence of a synced series was at the last sync, so that an occurrence
        // edited on both sides is a conflict (one row per occurrence key: its original start).
        """
        CREATE TABLE occurrences (
            pair TEXT NOT NULL REFERENCES pairs(name) ON DELETE CASCADE,
            item_id INTEGER NOT NULL REFERENCES items(id) ON DELETE CASCADE,
            occurrence_key TEXT NOT NULL,
            state_a TEXT NOT NULL,
            state_b TEXT NOT NULL,
            updated_at REAL NOT NULL,
            PRIMARY KEY (pair, item_id, occurrence_key)
        );
        CREATE INDEX occurrences_by_item ON occurrences(item_id);
        """,
    ]
}
