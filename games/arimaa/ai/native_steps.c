/* The compiled accelerator of the Arimaa computer player (issue 36), part 1: the board's
 * step generation, frozen pieces, the Zobrist hash and the exact goal search.
 *
 * A port of games/arimaa/rules/steps.py (`expand`, `frozen_mask`), of `search.zobrist` and
 * of games/arimaa/ai/goal.py (`find_goal`): the same children in the same order, the same
 * goal steps and the same count of expanded states, so a search built on it visits the very
 * same tree. The Python modules stay the reference: tests/games/arimaa/test_native.py
 * checks this file against them on random positions. Plain C99 without the C library (the
 * image links it -nostdlib); loaded with ctypes by games/arimaa/ai/native.py; every buffer
 * comes from the caller.
 *
 * Squares 0..63 with a1 = 0; boards[side * 6 + kind], kinds rabbit..elephant. */
#include <stdint.h>

typedef uint64_t u64;

#define EXPORT __attribute__((visibility("default")))

/* expand's child: steps.py's Child tuple */
typedef struct {
    u64 boards[12];
    int32_t frm, to, push_sq, push_kind, pull_sq, pull_kind, cap, index, cap_index, pad;
} Child;

#define MAX_CHILDREN 256 /* distinct (from, to) pairs: 64 squares x 4 directions */

static u64 NB[64];           /* board.NEIGHBOURS */
static u64 RABBIT_NB[2][64]; /* board.RABBIT_NEIGHBOURS */
static int TRAP_NEAR[64];    /* board.TRAP_NEAR */
static const int TRAP_SQ[4] = {18, 21, 42, 45};
static const u64 GOAL_RANK[2] = {0xFF00000000000000ULL, 0xFFULL};
static u64 ZOBRIST[12][64];

static int low_sq(u64 b) { return __builtin_ctzll(b); }

static void init_tables(void) {
    for (int sq = 0; sq < 64; sq++) {
        int rank = sq / 8, file = sq % 8;
        u64 m = 0;
        if (file > 0) m |= 1ULL << (sq - 1);
        if (file < 7) m |= 1ULL << (sq + 1);
        if (rank > 0) m |= 1ULL << (sq - 8);
        if (rank < 7) m |= 1ULL << (sq + 8);
        NB[sq] = m;
    }
    for (int sq = 0; sq < 64; sq++) {
        RABBIT_NB[0][sq] = NB[sq] & ~(sq >= 8 ? 1ULL << (sq - 8) : 0);
        RABBIT_NB[1][sq] = NB[sq] & ~(sq < 56 ? 1ULL << (sq + 8) : 0);
        TRAP_NEAR[sq] = -1;
        for (int t = 0; t < 4; t++) {
            int tr = TRAP_SQ[t];
            if (tr == sq || (NB[sq] >> tr & 1)) {
                TRAP_NEAR[sq] = tr;
                break;
            }
        }
    }
}

/* The Zobrist keys of search.py (ZOBRIST[index][square], 768 of them): made by Python's
 * random module, so they are handed over rather than made again. */
EXPORT int ari_init(const u64 *keys) {
    init_tables();
    for (int i = 0; i < 12; i++)
        for (int sq = 0; sq < 64; sq++) ZOBRIST[i][sq] = keys[i * 64 + sq];
    return (int)sizeof(Child);
}

EXPORT u64 ari_zobrist(const u64 *boards) {
    u64 h = 0;
    for (int i = 0; i < 12; i++) {
        u64 b = boards[i];
        while (b) {
            h ^= ZOBRIST[i][low_sq(b)];
            b &= b - 1;
        }
    }
    return h;
}

static void occupancy(const u64 *b, u64 *gold, u64 *silver) {
    *gold = b[0] | b[1] | b[2] | b[3] | b[4] | b[5];
    *silver = b[6] | b[7] | b[8] | b[9] | b[10] | b[11];
}

/* steps._apply into `c`: move the piece of board `index` from `frm` to `to`, then capture
 * on the trap next to `frm` if its colour (occupancy `own` before the step) no longer
 * protects it. */
static void apply_step(const u64 *boards, int index, int frm, int to, u64 own, Child *c) {
    for (int i = 0; i < 12; i++) c->boards[i] = boards[i];
    u64 move = (1ULL << frm) | (1ULL << to);
    c->boards[index] ^= move;
    c->cap = -1;
    c->cap_index = -1;
    int trap = TRAP_NEAR[frm];
    if (trap >= 0) {
        own ^= move;
        u64 tbit = 1ULL << trap;
        if ((own & tbit) && !(NB[trap] & own)) {
            int base = index < 6 ? 0 : 6;
            for (int j = base; j < base + 6; j++) {
                if (c->boards[j] & tbit) {
                    c->boards[j] ^= tbit;
                    c->cap = trap;
                    c->cap_index = j;
                    return;
                }
            }
        }
    }
}

static Child *add(Child *out, int *n, const u64 *boards, int index, int frm, int to, u64 own,
                  int ps, int pk, int ls, int lk) {
    Child *c = &out[(*n)++];
    apply_step(boards, index, frm, to, own, c);
    c->frm = frm;
    c->to = to;
    c->push_sq = ps;
    c->push_kind = pk;
    c->pull_sq = ls;
    c->pull_kind = lk;
    c->index = index;
    c->pad = 0;
    return c;
}

/* steps.expand: every legal next step, in its order; returns how many (<= MAX_CHILDREN). */
EXPORT int ari_expand(const u64 *boards, int side, int steps_left, int push_sq, int push_kind,
                      int pull_sq, int pull_kind, Child *out) {
    int n = 0;
    if (steps_left <= 0) return 0;
    int base = 6 * side, ebase = 6 - base;
    u64 gold, silver;
    occupancy(boards, &gold, &silver);
    u64 mine = side == 0 ? gold : silver, theirs = side == 0 ? silver : gold;
    u64 empty = ~(gold | silver);
    u64 stronger[6];
    u64 acc = 0;
    for (int k = 5; k >= 0; k--) {
        stronger[k] = acc;
        acc |= boards[ebase + k];
    }
    if (push_sq >= 0) {
        u64 nb = NB[push_sq];
        for (int k = push_kind + 1; k < 6; k++) {
            u64 cand = boards[base + k] & nb;
            while (cand) {
                int sq = low_sq(cand);
                cand &= cand - 1;
                u64 nn = NB[sq];
                if (!(nn & mine) && (nn & stronger[k])) continue;
                add(out, &n, boards, base + k, sq, push_sq, mine, -1, 0, -1, 0);
            }
        }
        return n;
    }
    int can_push = steps_left >= 2;
    uint8_t pushed[64]; /* pushed[v]: bit d set once (v, its d-th neighbour) was pushed */
    for (int i = 0; i < 64; i++) pushed[i] = 0;
    u64 pull_nb = pull_sq >= 0 ? NB[pull_sq] : 0;
    for (int k = 0; k < 6; k++) {
        u64 pieces = boards[base + k];
        if (!pieces) continue;
        u64 strong = stronger[k];
        u64 weaker = k ? (theirs ^ strong ^ boards[ebase + k]) : 0;
        while (pieces) {
            int sq = low_sq(pieces);
            pieces &= pieces - 1;
            u64 nn = NB[sq];
            if (!(nn & mine) && (nn & strong)) continue; /* frozen */
            u64 targets = (k == 0 ? RABBIT_NB[side][sq] : nn) & empty;
            int new_pull = k ? sq : -1;
            while (targets) {
                int to = low_sq(targets);
                targets &= targets - 1;
                add(out, &n, boards, base + k, sq, to, mine, -1, 0, new_pull, k);
            }
            if (can_push && (nn & weaker)) {
                u64 victims = nn & weaker;
                while (victims) {
                    int v = low_sq(victims);
                    u64 vlow = victims & -victims;
                    victims &= victims - 1;
                    u64 dests = NB[v] & empty;
                    if (!dests) continue;
                    int vk = 0;
                    for (vk = 0; vk < k; vk++)
                        if (boards[ebase + vk] & vlow) break;
                    int is_pull_victim = (pull_nb & vlow) && vk < pull_kind;
                    while (dests) {
                        int to = low_sq(dests);
                        dests &= dests - 1;
                        if (is_pull_victim && to == pull_sq) continue;
                        int d = to == v + 8 ? 1 : to == v - 8 ? 2 : to == v + 1 ? 4 : 8;
                        if (pushed[v] & d) continue;
                        pushed[v] |= (uint8_t)d;
                        add(out, &n, boards, ebase + vk, v, to, theirs, v, vk, -1, 0);
                    }
                }
            }
        }
    }
    if (pull_sq >= 0 && (pull_nb & theirs)) {
        for (int vk = 0; vk < pull_kind; vk++) {
            u64 cand = boards[ebase + vk] & pull_nb;
            while (cand) {
                int v = low_sq(cand);
                cand &= cand - 1;
                add(out, &n, boards, ebase + vk, v, pull_sq, theirs, -1, 0, -1, 0);
            }
        }
    }
    return n;
}

/* steps.frozen_mask: every frozen piece of either side. */
EXPORT u64 ari_frozen_mask(const u64 *boards) {
    u64 gold, silver;
    occupancy(boards, &gold, &silver);
    u64 out = 0;
    for (int side = 0; side < 2; side++) {
        u64 mine = side == 0 ? gold : silver;
        int ebase = 6 - 6 * side;
        u64 acc = 0;
        for (int k = 5; k >= 0; k--) {
            u64 pieces = boards[6 * side + k];
            while (pieces) {
                u64 low = pieces & -pieces;
                pieces ^= low;
                u64 nn = NB[low_sq(low)];
                if (!(nn & mine) && (nn & acc)) out |= low;
            }
            acc |= boards[ebase + k];
        }
    }
    return out;
}

/* ------------------------------------------------------------------ goal.find_goal */

/* One visited in-turn state (goal._Seen's key); `gen` says which search it belongs to, so
 * the caller's table is never cleared between searches. */
typedef struct {
    u64 boards[12];
    u64 hash;
    uint32_t gen;
    int8_t left, ps, pk, ls, lk, pad[3];
} Seen;

typedef struct {
    Seen *table;
    u64 mask; /* capacity - 1 (a power of two) */
    u64 count, limit;
    uint32_t gen;
    long long expanded, budget;
    int side;
    int out_of_budget, overflow;
} GoalSearch;

static int rabbit_distance(const u64 *boards, int side) {
    u64 r = boards[6 * side];
    if (!r) return 99;
    if (side == 0) return 7 - (63 - __builtin_clzll(r)) / 8;
    return low_sq(r) / 8;
}

static u64 state_hash(const u64 *b, int left, int ps, int pk, int ls, int lk) {
    u64 h = (u64)(left * 7 + 1) * 0x9E3779B97F4A7C15ULL ^ (u64)(ps + 2) << 8 ^
            (u64)pk << 16 ^ (u64)(ls + 2) << 24 ^ (u64)lk << 40;
    for (int i = 0; i < 12; i++) {
        h ^= b[i] + 0x9E3779B97F4A7C15ULL + (h << 6) + (h >> 2);
        h *= 0xBF58476D1CE4E5B9ULL;
    }
    return h ^ (h >> 31);
}

/* Add the state to the visited set: 1 if it was new, 0 if there already; overflow (the
 * caller's table is full) stops the search and tells the caller to use Python. */
static int seen_add(GoalSearch *g, const u64 *b, int left, int ps, int pk, int ls, int lk) {
    u64 h = state_hash(b, left, ps, pk, ls, lk);
    for (u64 i = h & g->mask;; i = (i + 1) & g->mask) {
        Seen *e = &g->table[i];
        if (e->gen != g->gen) {
            if (g->count >= g->limit) {
                g->overflow = 1;
                return 0;
            }
            for (int j = 0; j < 12; j++) e->boards[j] = b[j];
            e->hash = h;
            e->gen = g->gen;
            e->left = (int8_t)left;
            e->ps = (int8_t)ps;
            e->pk = (int8_t)pk;
            e->ls = (int8_t)ls;
            e->lk = (int8_t)lk;
            g->count++;
            return 1;
        }
        if (e->hash == h && e->left == left && e->ps == ps && e->pk == pk && e->ls == ls &&
            e->lk == lk) {
            int same = 1;
            for (int j = 0; j < 12 && same; j++) same = e->boards[j] == b[j];
            if (same) return 0;
        }
    }
}

/* goal._rabbit_run: every step left must move a rabbit straight forward. Steps written to
 * `path` (pairs); returns their number, or -1 for no goal. */
static int rabbit_run(const u64 *boards, int side, int steps_left, int *path) {
    if (steps_left == 0) return (boards[6 * side] & GOAL_RANK[side]) ? 0 : -1;
    u64 gold, silver;
    occupancy(boards, &gold, &silver);
    u64 mine = side == 0 ? gold : silver, theirs = side == 0 ? silver : gold;
    int forward = side == 0 ? 8 : -8;
    int d = rabbit_distance(boards, side);
    u64 rabbits = boards[6 * side];
    while (rabbits) {
        int sq = low_sq(rabbits);
        rabbits &= rabbits - 1;
        int row = sq / 8;
        if ((side == 0 ? 7 - row : row) != d) continue;
        int to = sq + forward;
        if ((gold | silver) >> to & 1) continue;
        u64 nn = NB[sq];
        if (!(nn & mine) && (nn & theirs & ~boards[6 - 6 * side])) continue;
        Child c;
        apply_step(boards, 6 * side, sq, to, mine, &c);
        if (!(c.boards[6 * side] >> to & 1)) continue;
        int rest = rabbit_run(c.boards, side, steps_left - 1, path + 2);
        if (rest >= 0) {
            path[0] = sq;
            path[1] = to;
            return rest + 1;
        }
    }
    return -1;
}

/* goal._dfs_sliced (never asked to pause): steps to `path`, their number, or -1. */
static int goal_dfs(GoalSearch *g, const u64 *boards, int steps_left, int ps, int pk, int ls,
                    int lk, int *path) {
    int side = g->side;
    u64 goal = GOAL_RANK[side];
    g->expanded++;
    if (g->budget && g->expanded > g->budget) {
        g->out_of_budget = 1;
        return -1;
    }
    if (ps < 0 && rabbit_distance(boards, side) == steps_left)
        return rabbit_run(boards, side, steps_left, path);
    Child kids[MAX_CHILDREN];
    int n = ari_expand(boards, side, steps_left, ps, pk, ls, lk, kids);
    for (int i = 0; i < n; i++) {
        Child *c = &kids[i];
        if (c->push_sq < 0 && (c->boards[6 * side] & goal)) {
            path[0] = c->frm;
            path[1] = c->to;
            return 1;
        }
        int left = steps_left - 1;
        if (left <= 0 || rabbit_distance(c->boards, side) > left) continue;
        if (!seen_add(g, c->boards, left, c->push_sq, c->push_kind, c->pull_sq, c->pull_kind)) {
            if (g->overflow) return -1;
            continue;
        }
        int rest = goal_dfs(g, c->boards, left, c->push_sq, c->push_kind, c->pull_sq,
                            c->pull_kind, path + 2);
        if (g->out_of_budget || g->overflow) return -1;
        if (rest >= 0) {
            path[0] = c->frm;
            path[1] = c->to;
            return rest + 1;
        }
    }
    return -1;
}

/* goal.find_goal. `table`: `capacity` (a power of two) visited-state slots the caller keeps
 * between calls, `*gen` its generation counter (zeroed with the table). Returns the number
 * of steps written to `path` (pairs, at most 8 steps), -1 for no goal (None, including out
 * of budget), -2 when the table filled up (the caller asks Python instead). `*expanded`:
 * the states expanded (goal.py's `work`). */
EXPORT int ari_find_goal(const u64 *boards, int side, int steps_left, int ps, int pk, int ls,
                         int lk, long long budget, void *table, long long capacity,
                         uint32_t *gen, int *path, long long *expanded) {
    *expanded = 0;
    if (ps < 0 && (boards[6 * side] & GOAL_RANK[side])) return 0;
    if (steps_left <= 0 || rabbit_distance(boards, side) > steps_left) return -1;
    GoalSearch g;
    g.table = (Seen *)table;
    g.mask = (u64)capacity - 1;
    g.count = 0;
    g.limit = (u64)capacity * 3 / 4;
    *gen += 1;
    g.gen = *gen;
    g.expanded = 0;
    g.budget = budget;
    g.side = side;
    g.out_of_budget = 0;
    g.overflow = 0;
    int n = goal_dfs(&g, boards, steps_left, ps, pk, ls, lk, path);
    *expanded = g.expanded;
    if (g.overflow) return -2;
    return n;
}

EXPORT int ari_seen_size(void) { return (int)sizeof(Seen); }
