/* The compiled accelerator of the Arimaa computer player (issue 36), part 3: the whole
 * search of one decision.
 *
 * A port of games/arimaa/ai/search.py's `Searcher` (iterative deepening, the step-based
 * alpha-beta `_node`, its leaf, move ordering, transposition table, history, the root turn's
 * visited sets, the node and work caps, `_keeps_safe_turn`) on top of native_steps.c and
 * native_eval.c: the same iterations, best steps, score, node count and goal-check work as
 * the Python searcher on the same position and limits (tests/games/arimaa/test_native.py).
 * The root's exact goal check and `_any_turn` stay with the caller (games/arimaa/ai/
 * native.py), which also owns every table here (one `Workspace`, allocated once).
 *
 * Python keys its transposition table by the 64-bit Zobrist key, as this file does. Its
 * other tables are keyed by the boards themselves; here by two independent 64-bit hashes of
 * them (the Zobrist key and `hash2`), which differ from exact keys only on a 128-bit
 * collision. Every table is cleared where Python's is (at TT_LIMIT entries); a root-turn
 * set that fills its slots stops the search with an error, and the caller asks Python. */
#include <stdint.h>

typedef uint64_t u64;

#define EXPORT __attribute__((visibility("default")))

typedef struct {
    u64 boards[12];
    int32_t frm, to, push_sq, push_kind, pull_sq, pull_kind, cap, index, cap_index, pad;
} Child;
typedef struct {
    int32_t victim, index, trap, steps;
} Threat;

/* native_steps.c and native_eval.c */
int ari_expand(const u64 *boards, int side, int steps_left, int push_sq, int push_kind,
               int pull_sq, int pull_kind, Child *out);
int ari_find_goal(const u64 *boards, int side, int steps_left, int ps, int pk, int ls, int lk,
                  long long budget, void *table, long long capacity, uint32_t *gen, int *path,
                  long long *expanded);
int ari_evaluate(const u64 *boards);
int ari_goal_steps(const u64 *boards, int side, int limit);
int ari_capture_threats(const u64 *boards, int side, int steps, Threat *out);
int ari_best_capture(const u64 *boards, int side, int steps_left);
int ari_tactics(const u64 *boards, int side, int steps_left, int capture_floor);

#define MAX_CHILDREN 256
#define MAX_THREATS 128
#define WIN 1000000
#define INF (10 * WIN)
#define GOAL_THREATENED 150
#define GOAL_BUDGET 60
#define GOAL_STATES_PER_UNIT 4
#define TT_LIMIT 300000
#define EXACT 0
#define LOWER 1
#define UPPER 2
#define NO_MOVE (-2)
#define PASS (-1)
#define MAX_PLY 64
#define MAX_PV 16
#define MAX_ITER 32
#define MAX_FORBIDDEN 64
#define TT_SLOTS (1 << 19)   /* > TT_LIMIT + 1: cleared before it fills */
#ifndef ROOT_SLOTS /* (a test builds it small: the caller's fallback) */
#define ROOT_SLOTS (1 << 18) /* the root turn's sets: 3/4 full stops the search */
#endif
#define GOAL_SLOTS (1 << 16) /* find_goal's visited states (native_steps.c's Seen) */
#define SEEN_BYTES 120       /* sizeof(Seen) in native_steps.c (checked by native.py) */
static const u64 GOAL_RANK[2] = {0xFF00000000000000ULL, 0xFFULL};
#define FILE_A 0x0101010101010101ULL
#define FILE_H (FILE_A << 7)

static u64 ZOBRIST[12][64], Z_SIDE[2], Z_STEPS[5], Z_PUSH[65], Z_PULL[65 * 6];

typedef struct {
    u64 key;
    uint32_t gen;
    int32_t value;
    int16_t depth, move;
    int8_t flag, pad[3];
} TTEntry;

typedef struct {
    u64 k1, k2;
    uint32_t gen;
    int32_t value;
} Slot;

typedef struct {
    Slot *slots;
    u64 mask;
    long long count, limit; /* limit: clear past it (TT_LIMIT) or overflow (root sets) */
    uint32_t gen;
    int clears; /* 1: cleared past the limit, as Python's dicts; 0: overflow */
} Table;

typedef struct {
    TTEntry tt[TT_SLOTS];
    Slot goal_cache[TT_SLOTS], start_caps[TT_SLOTS];
    Slot root_seen[ROOT_SLOTS], root_done[ROOT_SLOTS];
    unsigned char goal_seen[GOAL_SLOTS * SEEN_BYTES];
} Workspace;

/* What one decision returns: search.Searcher's fields after `run`. */
typedef struct {
    int32_t status; /* 0 done; 1 a table overflowed: ask Python */
    int32_t score, depth_done, capped, best_len, iterations;
    long long nodes, goal_work;
    int32_t best[MAX_PV * 2];
    int32_t iter_depth[MAX_ITER], iter_score[MAX_ITER], iter_len[MAX_ITER]; /* len -1: None */
    int32_t iter_steps[MAX_ITER][MAX_PV * 2];
} Result;

typedef struct {
    Workspace *w;
    Table goal_cache, start_caps, root_seen, root_done;
    uint32_t tt_gen, goal_gen;
    long long tt_count;
    u64 root[12];
    int side, part, parts;
    int nforbidden;
    const u64 *forbidden;
    long long nodes, goal_work, node_cap, work_cap;
    int capped, aborted, overflow;
    long long history[64][64];
    int pv_len[MAX_PLY]; /* -1: no entry (Python's missing dict key) */
    int pv[MAX_PLY][MAX_PV * 2];
    int iter_best_len, iter_score;
    int iter_best[MAX_PV * 2];
} Search;

EXPORT int ari_search_init(const u64 *side, const u64 *steps, const u64 *push, const u64 *pull,
                           const u64 *zobrist) {
    for (int i = 0; i < 2; i++) Z_SIDE[i] = side[i];
    for (int i = 0; i < 5; i++) Z_STEPS[i] = steps[i];
    for (int i = 0; i < 65; i++) Z_PUSH[i] = push[i];
    for (int i = 0; i < 65 * 6; i++) Z_PULL[i] = pull[i];
    for (int i = 0; i < 12; i++)
        for (int sq = 0; sq < 64; sq++) ZOBRIST[i][sq] = zobrist[i * 64 + sq];
    return 0;
}

EXPORT long long ari_workspace_size(void) { return (long long)sizeof(Workspace); }
EXPORT int ari_result_size(void) { return (int)sizeof(Result); }

static u64 mix(u64 x) {
    x ^= x >> 30;
    x *= 0xBF58476D1CE4E5B9ULL;
    x ^= x >> 27;
    x *= 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
}

/* A second hash of the boards, independent of the Zobrist key. */
static u64 hash2(const u64 *b) {
    u64 h = 0x243F6A8885A308D3ULL;
    for (int i = 0; i < 12; i++) h = mix(h ^ mix(b[i] + 0x9E3779B97F4A7C15ULL * (u64)(i + 1)));
    return h;
}

static int same(const u64 *a, const u64 *b) {
    for (int i = 0; i < 12; i++)
        if (a[i] != b[i]) return 0;
    return 1;
}

static void table_init(Table *t, Slot *slots, long long capacity, int clears) {
    t->slots = slots;
    t->mask = (u64)capacity - 1;
    t->count = 0;
    t->clears = clears;
    t->limit = clears ? TT_LIMIT : capacity * 3 / 4;
    t->gen += 1;
}

static Slot *table_find(Table *t, u64 k1, u64 k2) {
    for (u64 i = k1 & t->mask;; i = (i + 1) & t->mask) {
        Slot *e = &t->slots[i];
        if (e->gen != t->gen) return 0;
        if (e->k1 == k1 && e->k2 == k2) return e;
    }
}

/* Insert or overwrite, clearing first past the limit as Python's `if len(d) > LIMIT:
 * d.clear()` does; 0 when a root set overflows. */
static Slot *table_put(Search *s, Table *t, u64 k1, u64 k2, int value) {
    if (t->count > t->limit) {
        if (!t->clears) {
            s->overflow = 1;
            s->aborted = 1;
            return 0;
        }
        t->gen += 1;
        t->count = 0;
    }
    for (u64 i = k1 & t->mask;; i = (i + 1) & t->mask) {
        Slot *e = &t->slots[i];
        if (e->gen != t->gen) {
            e->gen = t->gen;
            e->k1 = k1;
            e->k2 = k2;
            e->value = value;
            t->count++;
            return e;
        }
        if (e->k1 == k1 && e->k2 == k2) {
            e->value = value;
            return e;
        }
    }
}

static TTEntry *tt_find(Search *s, u64 key) {
    for (u64 i = key & (TT_SLOTS - 1);; i = (i + 1) & (TT_SLOTS - 1)) {
        TTEntry *e = &s->w->tt[i];
        if (e->gen != s->tt_gen) return 0;
        if (e->key == key) return e;
    }
}

static void tt_put(Search *s, u64 key, int depth, int flag, int value, int move) {
    if (s->tt_count > TT_LIMIT) {
        s->tt_gen += 1;
        s->tt_count = 0;
    }
    for (u64 i = key & (TT_SLOTS - 1);; i = (i + 1) & (TT_SLOTS - 1)) {
        TTEntry *e = &s->w->tt[i];
        int fresh = e->gen != s->tt_gen;
        if (fresh || e->key == key) {
            if (fresh) s->tt_count++;
            e->gen = s->tt_gen;
            e->key = key;
            e->depth = (int16_t)depth;
            e->flag = (int8_t)flag;
            e->value = value;
            e->move = (int16_t)move;
            return;
        }
    }
}

static long long work(const Search *s) { return s->nodes + s->goal_work / GOAL_STATES_PER_UNIT; }

static int forbidden(const Search *s, const u64 *b) {
    for (int i = 0; i < s->nforbidden; i++)
        if (same(s->forbidden + 12 * i, b)) return 1;
    return 0;
}

/* Searcher._goal_threat: can `side` goal this turn? Cached per position. */
static int goal_threat(Search *s, const u64 *boards, u64 h, int side) {
    u64 k1 = h ^ Z_SIDE[side] ^ (u64)side, k2 = hash2(boards) ^ (u64)side;
    Slot *hit = table_find(&s->goal_cache, k1, k2);
    if (hit) return hit->value;
    int path[16];
    long long expanded = 0;
    int n = ari_find_goal(boards, side, 4, -1, 0, -1, 0, GOAL_BUDGET, s->w->goal_seen,
                          GOAL_SLOTS, &s->goal_gen, path, &expanded);
    s->goal_work += expanded;
    if (n == -2) {
        s->overflow = 1;
        s->aborted = 1;
        return 0;
    }
    table_put(s, &s->goal_cache, k1, k2, n >= 0);
    return n >= 0;
}

/* Searcher._leaf */
static int leaf(Search *s, const u64 *boards, u64 h, int side, int steps_left, int ply, int beta,
                const u64 *start, u64 start_h) {
    int v = ari_evaluate(boards);
    v = side == 0 ? v : -v;
    if (v - GOAL_THREATENED >= beta) return v - GOAL_THREATENED;
    if (steps_left == 4) {
        int g = goal_threat(s, boards, h, side);
        if (s->aborted) return 0;
        if (g) return WIN - ply - 1;
    }
    int floor = 0;
    if (steps_left < 4) {
        u64 k1 = start_h ^ Z_SIDE[side] ^ (u64)side, k2 = hash2(start) ^ (u64)side;
        Slot *hit = table_find(&s->start_caps, k1, k2);
        if (hit) {
            floor = hit->value;
        } else {
            floor = ari_best_capture(start, side, 4);
            table_put(s, &s->start_caps, k1, k2, floor);
        }
    }
    return v + ari_tactics(boards, side, steps_left, floor);
}

static u64 within1(int sq) {
    u64 b = 1ULL << sq;
    return b | b << 8 | b >> 8 | (b & ~FILE_H) << 1 | (b & ~FILE_A) >> 1;
}

static void pv_set(Search *s, int ply, int move_frm, int move_to, int with_rest) {
    int n = 0;
    int tmp[MAX_PV * 2];
    if (move_frm != NO_MOVE) {
        tmp[n++] = move_frm;
        tmp[n++] = move_to;
    }
    if (with_rest && ply + 1 < MAX_PLY && s->pv_len[ply + 1] > 0) {
        for (int i = 0; i < s->pv_len[ply + 1] && n < MAX_PV * 2; i++) tmp[n++] = s->pv[ply + 1][i];
    }
    for (int i = 0; i < n; i++) s->pv[ply][i] = tmp[i];
    s->pv_len[ply] = n;
}

/* Searcher._node: the value for `side` (aborted: meaningless, s->aborted set). */
static int node(Search *s, const u64 *boards, int side, int steps_left, int ps, int pk, int ls,
                int lk, u64 h, int depth, int alpha, int beta, int ply, int root_turn,
                const u64 *turn_start, u64 start_h) {
    s->nodes++;
    if (s->node_cap && s->nodes > s->node_cap) {
        s->aborted = 1;
        return 0;
    }
    if (s->work_cap && work(s) > s->work_cap) {
        s->capped = 1;
        s->aborted = 1;
        return 0;
    }
    if (ply >= MAX_PLY - 1) { /* never in a legal search: depth is at most a few turns */
        s->overflow = 1;
        s->aborted = 1;
        return 0;
    }
    if (depth <= 0) {
        if (!root_turn) return leaf(s, boards, h, side, steps_left, ply, beta, turn_start, start_h);
        if (ps < 0 && !same(boards, s->root) && !forbidden(s, boards)) {
            s->pv_len[ply] = 0;
            int v = leaf(s, boards, h, 1 - side, 4, ply + 1, -alpha, boards, h);
            return -v;
        }
        depth = 1;
    }
    if (steps_left == 4 && ply > 0) {
        int g = goal_threat(s, boards, h, side);
        if (s->aborted) return 0;
        if (g) return WIN - ply - 1;
    }
    u64 key = h ^ Z_SIDE[side] ^ Z_STEPS[steps_left] ^ Z_PUSH[ps + 1] ^ Z_PULL[(ls + 1) * 6 + lk];
    TTEntry *entry = tt_find(s, key);
    int tt_move = NO_MOVE;
    if (entry) {
        tt_move = entry->move;
        if (!root_turn && entry->depth >= depth) {
            int flag = entry->flag, value = entry->value;
            if (flag == EXACT) return value;
            if (flag == LOWER && value >= beta) return value;
            if (flag == UPPER && value <= alpha) return value;
        }
    }
    if (root_turn) s->pv_len[ply] = 0;
    int alpha0 = alpha;
    int best = -INF, best_move = NO_MOVE;
    Child kids[MAX_CHILDREN];
    int n = ari_expand(boards, side, steps_left, ps, pk, ls, lk, kids);
    int enemy_base = 6 - 6 * side;
    int order[MAX_CHILDREN + 1];
    for (int i = 0; i < n; i++) order[i] = i;
    if (!(root_turn && depth <= 1)) {
        u64 hot = 0;
        int runner = -1;
        if (depth >= 2) {
            Threat t[MAX_THREATS];
            int nt = ari_capture_threats(boards, side, steps_left, t);
            for (int i = 0; i < nt; i++) hot |= within1(t[i].victim) | (1ULL << t[i].trap);
            if (steps_left == 4) {
                nt = ari_capture_threats(boards, 1 - side, 4, t);
                for (int i = 0; i < nt; i++) hot |= within1(t[i].victim) | within1(t[i].trap);
            }
            runner = ari_goal_steps(boards, side, steps_left) != 99 ? 6 * side : -1;
        }
        long long keys[MAX_CHILDREN];
        for (int i = 0; i < n; i++) {
            Child *c = &kids[i];
            int move = c->frm * 64 + c->to;
            long long k;
            if (move == tt_move) {
                k = -10000000;
            } else {
                k = -s->history[c->frm][c->to];
                if (c->cap >= 0)
                    k += (c->cap_index >= enemy_base && c->cap_index < enemy_base + 6) ? -500000
                                                                                         : 500000;
                if (c->index == runner) k -= 300000;
                if (c->index >= enemy_base && c->index < enemy_base + 6) k -= 100000;
                if ((hot >> c->frm & 1) || (hot >> c->to & 1)) k -= 50000;
            }
            keys[i] = k;
        }
        for (int i = 1; i < n; i++) { /* stable, as Python's sort */
            int x = order[i];
            long long kx = keys[x];
            int j = i - 1;
            while (j >= 0 && keys[order[j]] > kx) {
                order[j + 1] = order[j];
                j--;
            }
            order[j + 1] = x;
        }
    }
    int opp = 1 - side;
    int can_pass = steps_left < 4 && ps < 0 && !same(boards, turn_start);
    /* the moves: children in order, the pass (-1) first when it is the TT move, else last */
    int moves[MAX_CHILDREN + 1], nm = 0;
    if (can_pass && tt_move == PASS) moves[nm++] = -1;
    for (int i = 0; i < n; i++) moves[nm++] = order[i];
    if (can_pass && tt_move != PASS) moves[nm++] = -1;
    for (int m = 0; m < nm; m++) {
        const u64 *nb;
        u64 nh;
        int ends, cost, nps, npk, nls, nlk, frm, to, move;
        Child *c = moves[m] >= 0 ? &kids[moves[m]] : 0;
        if (!c) {
            move = PASS;
            frm = to = -1;
            nb = boards;
            nh = h;
            ends = 1;
            cost = steps_left;
            nps = npk = nls = nlk = 0;
        } else {
            frm = c->frm;
            to = c->to;
            move = frm * 64 + to;
            nb = c->boards;
            nh = h ^ ZOBRIST[c->index][frm] ^ ZOBRIST[c->index][to];
            if (c->cap >= 0) nh ^= ZOBRIST[c->cap_index][c->cap];
            ends = steps_left == 1;
            cost = 1;
            nps = c->push_sq;
            npk = c->push_kind;
            nls = c->pull_sq;
            nlk = c->pull_kind;
        }
        int value;
        if (ends) {
            if (root_turn) {
                u64 k2 = hash2(nb);
                if (same(nb, s->root) || forbidden(s, nb) || table_find(&s->root_done, nh, k2))
                    continue;
                if (s->parts > 1 && nh % (u64)s->parts != (u64)s->part) continue;
                if (!table_put(s, &s->root_done, nh, k2, 1)) return 0;
            }
            if (nb[6 * side] & GOAL_RANK[side])
                value = WIN - ply;
            else if (nb[6 * opp] & GOAL_RANK[opp])
                value = -(WIN - ply);
            else if (!nb[6 * opp])
                value = WIN - ply;
            else if (!nb[6 * side])
                value = -(WIN - ply);
            else {
                value = -node(s, nb, opp, 4, -1, 0, -1, 0, nh, depth - cost, -beta, -alpha,
                              ply + 1, 0, nb, nh);
                if (s->aborted) return 0;
            }
        } else {
            if (root_turn) {
                u64 sk = nh ^ Z_STEPS[steps_left - 1] ^ Z_PUSH[nps + 1] ^
                         Z_PULL[(nls + 1) * 6 + nlk] ^ (u64)npk << 56;
                u64 k2 = hash2(nb) ^ mix((u64)(steps_left - 1) | (u64)(nps + 1) << 8 |
                                         (u64)npk << 16 | (u64)(nls + 1) << 24 |
                                         (u64)nlk << 32);
                if (table_find(&s->root_seen, sk, k2)) continue;
                if (!table_put(s, &s->root_seen, sk, k2, 1)) return 0;
            }
            value = node(s, nb, side, steps_left - 1, nps, npk, nls, nlk, nh, depth - 1, alpha,
                         beta, ply + 1, root_turn, turn_start, start_h);
            if (s->aborted) return 0;
        }
        if (value > best) {
            best = value;
            best_move = move;
            if (root_turn) {
                if (!c)
                    pv_set(s, ply, NO_MOVE, 0, 0);
                else if (ends)
                    pv_set(s, ply, frm, to, 0);
                else
                    pv_set(s, ply, frm, to, 1);
                if (ply == 0) {
                    s->iter_best_len = s->pv_len[0];
                    for (int i = 0; i < s->pv_len[0]; i++) s->iter_best[i] = s->pv[0][i];
                    s->iter_score = value;
                }
            }
            if (value > alpha) {
                alpha = value;
                if (alpha >= beta) {
                    if (c) s->history[frm][to] += (long long)depth * depth;
                    break;
                }
            }
        }
    }
    if (best == -INF) {
        if (root_turn && ply > 0) s->pv_len[ply] = -1;
        return ply == 0 ? -INF + 1 : -WIN;
    }
    if (root_turn && ply == 0 && best <= -INF + 1) s->pv_len[0] = -1;
    int flag = (alpha0 < best && best < beta) ? EXACT : (best >= beta ? LOWER : UPPER);
    tt_put(s, key, depth, flag, best, best_move);
    return best;
}

/* search._result: the boards after `side` plays these steps from `boards`. */
static void result_of(const u64 *boards, int side, const int *steps, int n, u64 *out) {
    u64 b[12];
    for (int i = 0; i < 12; i++) b[i] = boards[i];
    int left = 4, ps = -1, pk = 0, ls = -1, lk = 0;
    Child kids[MAX_CHILDREN];
    for (int i = 0; i < n; i++) {
        int m = ari_expand(b, side, left, ps, pk, ls, lk, kids);
        for (int j = 0; j < m; j++) {
            if (kids[j].frm == steps[2 * i] && kids[j].to == steps[2 * i + 1]) {
                for (int q = 0; q < 12; q++) b[q] = kids[j].boards[q];
                left -= 1;
                ps = kids[j].push_sq;
                pk = kids[j].push_kind;
                ls = kids[j].pull_sq;
                lk = kids[j].pull_kind;
                break;
            }
        }
    }
    for (int i = 0; i < 12; i++) out[i] = b[i];
}

static int hangs(const u64 *boards, int side, const int *steps, int n) {
    u64 after[12];
    Threat t[MAX_THREATS];
    result_of(boards, side, steps, n, after);
    return ari_capture_threats(after, 1 - side, 4, t) > 0;
}

static void record(Result *r, int depth, int score, const int *steps, int len) {
    if (r->iterations >= MAX_ITER) return;
    int i = r->iterations++;
    r->iter_depth[i] = depth;
    r->iter_score[i] = score;
    r->iter_len[i] = len;
    for (int j = 0; j < len; j++) r->iter_steps[i][j] = steps[j];
}

/* Searcher._run after the root goal check (the caller's, its work in `goal_work`):
 * `forbidden`: nforbidden boards (12 words each). The best steps are empty (best_len -1)
 * when no turn was scored (the caller's `_any_turn`). */
EXPORT int ari_search(Workspace *w, const u64 *boards, int side, int max_depth,
                      long long node_limit, int full_turn, const u64 *forbidden_boards,
                      int nforbidden, int part, int parts, long long work_cap,
                      long long goal_work, Result *r) {
    static Search st; /* one decision at a time per process (a worker runs one) */
    Search *s = &st;
    s->w = w;
    s->tt_gen += 1;
    s->tt_count = 0;
    table_init(&s->goal_cache, w->goal_cache, TT_SLOTS, 1);
    table_init(&s->start_caps, w->start_caps, TT_SLOTS, 1);
    table_init(&s->root_seen, w->root_seen, ROOT_SLOTS, 0);
    table_init(&s->root_done, w->root_done, ROOT_SLOTS, 0);
    for (int i = 0; i < 12; i++) s->root[i] = boards[i];
    s->side = side;
    s->part = part;
    s->parts = parts;
    s->forbidden = forbidden_boards;
    s->nforbidden = nforbidden;
    s->nodes = 0;
    s->goal_work = goal_work;
    s->node_cap = full_turn ? 0 : node_limit / parts;
    s->work_cap = work_cap;
    s->capped = s->aborted = s->overflow = 0;
    for (int i = 0; i < 64; i++)
        for (int j = 0; j < 64; j++) s->history[i][j] = 0;
    r->status = 0;
    r->score = 0;
    r->depth_done = 0;
    r->best_len = -1;
    r->iterations = 0;
    u64 h0 = 0;
    for (int i = 0; i < 12; i++)
        for (u64 b = boards[i]; b; b &= b - 1) h0 ^= ZOBRIST[i][__builtin_ctzll(b)];
    int top = max_depth > 1 ? max_depth : 1;
    int depth;
    for (depth = 1; depth <= top; depth++) {
        if (depth == 3 && full_turn && max_depth >= 4) continue;
        s->root_seen.gen += 1;
        s->root_seen.count = 0;
        s->root_done.gen += 1;
        s->root_done.count = 0;
        for (int i = 0; i < MAX_PLY; i++) s->pv_len[i] = -1;
        s->iter_best_len = -1;
        int score = node(s, boards, side, 4, -1, 0, -1, 0, h0, depth, -INF, INF, 0, 1, boards, h0);
        if (s->aborted) break;
        if (s->pv_len[0] < 0) {
            for (int d = depth; d <= max_depth; d++) record(r, d, -INF, 0, -1);
            break;
        }
        int steps[MAX_PV * 2], len = s->pv_len[0];
        for (int i = 0; i < len; i++) steps[i] = s->pv[0][i];
        record(r, depth, score, steps, len);
        /* _keeps_safe_turn */
        if (full_turn && depth > 4 && r->best_len >= 0 && score < WIN - 100 &&
            hangs(boards, side, steps, len / 2) && !hangs(boards, side, r->best, r->best_len / 2))
            continue;
        r->best_len = len;
        for (int i = 0; i < len; i++) r->best[i] = steps[i];
        r->score = score;
        r->depth_done = depth;
        if (score >= WIN - 100 || (parts == 1 && score <= -(WIN - 100))) break;
        if (depth >= 4 && !s->node_cap && node_limit) s->node_cap = s->nodes + node_limit / parts;
    }
    if (s->overflow) {
        r->status = 1;
    } else if (s->aborted) {
        if (s->capped && depth == 4 && s->iter_best_len >= 0) {
            record(r, 4, s->iter_score, s->iter_best, s->iter_best_len);
            r->best_len = s->iter_best_len;
            for (int i = 0; i < s->iter_best_len; i++) r->best[i] = s->iter_best[i];
            r->score = s->iter_score;
            r->depth_done = 4;
        }
    }
    /* _adopt_partial (its `_any_turn` is the caller's) */
    if (s->iter_best_len >= 0 && r->best_len < 0) {
        r->best_len = s->iter_best_len;
        for (int i = 0; i < s->iter_best_len; i++) r->best[i] = s->iter_best[i];
    }
    r->capped = s->capped;
    r->nodes = s->nodes;
    r->goal_work = s->goal_work;
    return r->status;
}
