/* The Reversi search of one decision in C: the accelerator of games/reversi/ai/search.py.
 *
 * Why: a pure-Python node costs about 227k instructions (docs/performance.md); here a few
 * thousand, so a Raspberry Pi searches many times more nodes in the same wait (issue 36).
 * The Python engine stays the reference: this file is a line-by-line port of `Search.run`
 * (iterative-deepening NegaScout, its transposition table of at most TT_MAX positions, the
 * exact solver) and of the learned evaluation, so it returns the same move, score and node
 * counts (tests/games/reversi/test_native.py compares them on random positions).
 *
 * Plain C99, no Python headers and no C library (only the compiler's own <stddef.h>, <stdint.h>): the
 * caller owns every byte of memory (`tf_weights_size`, `tf_search_size`), so the image's
 * cross compiler builds it for arm64 with no arm64 C library at hand (-ffreestanding).
 * Loaded with ctypes (games/reversi/ai/native.py), built by `python3 run.py` with the
 * system cc and for arm64 by deploy/image/native-build.
 */
#include <stddef.h>
#include <stdint.h>

typedef uint64_t u64;

#define INF (1 << 30)
#define WIN 10000
#define EXACT 0
#define LOWER 1
#define UPPER 2
#define PLAIN_EMPTIES 5
#define TT_MAX (1 << 15)
#define TT_SLOTS (1 << 16) /* open addressing, never more than half full */
#define CORNERS 0x8100000000000081ULL
#define MAX_INSTANCES 64
#define MAX_SQUARES 10

/* ---- bitboards (games/reversi/rules/bitboard.py) ------------------------------------ */

static u64 rays_up[256], rays_down[256];
static int rays_ready = 0;

static void make_rays(void) {
    static const int dirs[8][2] = {{0, 1}, {0, -1}, {1, 0}, {-1, 0},
                                   {1, 1}, {1, -1}, {-1, 1}, {-1, -1}};
    int nu = 0, nd = 0;
    for (int sq = 0; sq < 64; sq++) {
        int r0 = sq / 8, c0 = sq % 8;
        for (int d = 0; d < 8; d++) {
            int dr = dirs[d][0], dc = dirs[d][1];
            u64 ray = 0;
            int r = r0 + dr, c = c0 + dc;
            while (r >= 0 && r < 8 && c >= 0 && c < 8) {
                ray |= 1ULL << (r * 8 + c);
                r += dr;
                c += dc;
            }
            if (dr * 8 + dc > 0)
                rays_up[nu++] = ray;
            else
                rays_down[nd++] = ray;
        }
    }
    rays_ready = 1;
}

static int popcount(u64 x) { return __builtin_popcountll(x); }
static int high_bit(u64 x) { return 63 - __builtin_clzll(x); }

static u64 legal_moves(u64 p, u64 o) {
    u64 m = o & 0x7E7E7E7E7E7E7E7EULL, t, mm, moves;
#define FILL(mask, SH, a, b)                                                               \
    t = (mask) & (p SH(a));                                                                \
    t |= (mask) & (t SH(a));                                                               \
    mm = (mask) & ((mask) SH(a));                                                          \
    t |= mm & (t SH(b));                                                                   \
    t |= mm & (t SH(b));
#define L <<
#define R >>
    FILL(m, L, 1, 2) moves = t << 1;
    FILL(m, R, 1, 2) moves |= t >> 1;
    FILL(o, L, 8, 16) moves |= t << 8;
    FILL(o, R, 8, 16) moves |= t >> 8;
    FILL(m, L, 9, 18) moves |= t << 9;
    FILL(m, R, 9, 18) moves |= t >> 9;
    FILL(m, L, 7, 14) moves |= t << 7;
    FILL(m, R, 7, 14) moves |= t >> 7;
#undef FILL
#undef L
#undef R
    return moves & ~(p | o);
}

/* Python's flips(p, o, -1) reads the rays of square 63 (negative indexes): kept, so that a
 * full board's `_last_empty` gives the same number as the reference. */
static u64 flips(u64 p, u64 o, int sq) {
    u64 result = 0, not_opp = ~o;
    int base = sq < 0 ? 252 : sq * 4;
    for (int i = base; i < base + 4; i++) {
        u64 ray = rays_up[i], stop = ray & not_opp;
        if (stop) {
            u64 first = stop & (0 - stop);
            if (first & p) result |= ray & (first - 1);
        }
        ray = rays_down[i];
        stop = ray & not_opp;
        if (stop) {
            u64 first = 1ULL << high_bit(stop);
            if (first & p) result |= ray & ~((first << 1) - 1);
        }
    }
    return result;
}

/* ---- the learned evaluation (games/reversi/ai/learned.py) --------------------------- */

typedef struct {
    int phases;                   /* weight sets */
    int per_phase;                /* values in one set: every table, then mobility, bias */
    int instances;                /* pattern instances */
    int offset[MAX_INSTANCES];    /* the instance's table within a set */
    int length[MAX_INSTANCES];    /* its squares */
    int square[MAX_INSTANCES][MAX_SQUARES];
    /* How each instance is read (as learned.py's generated evaluator reads it): from whole
     * bytes of the board, each turned into the instance's base-3 digits by a 256-entry
     * table (a disc of the side to move is digit 1; the other side's, twice the entry). */
    int sources[MAX_INSTANCES];
    int source_kind[MAX_INSTANCES][3]; /* ROW, COLUMN (row of the transposed board), GATHER */
    int source_number[MAX_INSTANCES][3];
    u64 source_mask[MAX_INSTANCES][3];
    uint16_t digits[MAX_INSTANCES][3][256];
    int phase_of_empties[65];
    const int16_t *values;        /* phases x per_phase, owned by the caller */
} Weights;

int tf_weights_size(void) { return (int)sizeof(Weights); }

enum { ROW, COLUMN, GATHER };
#define GATHER_MUL 0x0101010101010101ULL /* squares of distinct columns into the top byte */

/* The fewest bytes that hold an instance's squares: rows, columns, or one gathered byte
 * when every square has its own row and column (the diagonals). */
static void plan_sources(Weights *w, int i) {
    int n = w->length[i], rows = 0, cols = 0;
    unsigned row_seen = 0, col_seen = 0;
    for (int k = 0; k < n; k++) {
        int r = w->square[i][k] / 8, c = w->square[i][k] % 8;
        if (!(row_seen >> r & 1)) rows++;
        if (!(col_seen >> c & 1)) cols++;
        row_seen |= 1u << r;
        col_seen |= 1u << c;
    }
    int kind = rows <= cols ? ROW : COLUMN;
    if (rows == n && cols == n && n > 1) kind = GATHER;
    unsigned seen = kind == ROW ? row_seen : col_seen;
    int m = 0;
    if (kind == GATHER) {
        u64 mask = 0;
        for (int k = 0; k < n; k++) mask |= 1ULL << w->square[i][k];
        w->source_kind[i][0] = GATHER;
        w->source_number[i][0] = 0;
        w->source_mask[i][0] = mask;
        m = 1;
    } else {
        for (int line = 0; line < 8; line++)
            if (seen >> line & 1) {
                w->source_kind[i][m] = kind;
                w->source_number[i][m] = line;
                w->source_mask[i][m] = 0;
                m++;
            }
    }
    w->sources[i] = m;
    for (int j = 0; j < m; j++)
        for (int byte = 0; byte < 256; byte++) {
            int value = 0, weight = 1;
            for (int k = 0; k < n; k++, weight *= 3) {
                int r = w->square[i][k] / 8, c = w->square[i][k] % 8, bit;
                if (w->source_kind[i][j] == GATHER)
                    bit = c;
                else if (w->source_kind[i][j] == ROW)
                    bit = r == w->source_number[i][j] ? c : -1;
                else
                    bit = c == w->source_number[i][j] ? r : -1;
                if (bit >= 0 && (byte >> bit & 1)) value += weight;
            }
            w->digits[i][j][byte] = (uint16_t)value;
        }
}

/* Fill `weights` (tf_weights_size bytes) from the weights as decoded by
 * learned.decode_weights and the pattern geometry of patterns.PATTERN_TYPES, flattened by
 * native.py; `values` must live as long as the weights are used. 0, or -1 if they do not
 * fit the limits. */
int tf_weights_init(void *weights, int phases, int per_phase, const int16_t *values,
                    int instances, const int *offsets, const int *lengths, const int *squares,
                    const int *phase_of_empties) {
    Weights *w = weights;
    if (instances > MAX_INSTANCES || phases < 1 || per_phase < 2) return -1;
    w->values = values;
    w->phases = phases;
    w->per_phase = per_phase;
    w->instances = instances;
    for (int i = 0; i < instances; i++) {
        if (lengths[i] > MAX_SQUARES) return -1;
        w->offset[i] = offsets[i];
        w->length[i] = lengths[i];
        for (int k = 0; k < lengths[i]; k++) w->square[i][k] = squares[i * MAX_SQUARES + k];
        plan_sources(w, i);
        if (w->sources[i] > 3) return -1;
    }
    for (int e = 0; e < 65; e++) w->phase_of_empties[e] = phase_of_empties[e];
    if (!rays_ready) make_rays();
    return 0;
}

/* The board mirrored in the a1-h8 diagonal: square (row r, column c) -> (c, r). */
static u64 transpose(u64 x) {
    u64 t = 0x0F0F0F0F00000000ULL & (x ^ (x << 28));
    x ^= t ^ (t >> 28);
    t = 0x3333000033330000ULL & (x ^ (x << 14));
    x ^= t ^ (t >> 14);
    t = 0x5500550055005500ULL & (x ^ (x << 7));
    x ^= t ^ (t >> 7);
    return x;
}

static int evaluate(const Weights *w, u64 p, u64 o) {
    int mine = popcount(legal_moves(p, o)), theirs = popcount(legal_moves(o, p));
    if (!mine && !theirs) {
        int d = popcount(p) - popcount(o);
        return d * 100 + (d > 0 ? WIN : d < 0 ? -WIN : 0);
    }
    const int16_t *set =
        w->values + (size_t)w->phase_of_empties[64 - popcount(p | o)] * (size_t)w->per_phase;
    int s = set[w->per_phase - 1] + set[w->per_phase - 2] * (mine - theirs);
    u64 tp = transpose(p), to = transpose(o);
    for (int i = 0; i < w->instances; i++) {
        int idx = 0;
        for (int j = 0; j < w->sources[i]; j++) {
            int n = w->source_number[i][j];
            unsigned bp, bo;
            switch (w->source_kind[i][j]) {
            case ROW:
                bp = (unsigned)(p >> (8 * n)) & 255;
                bo = (unsigned)(o >> (8 * n)) & 255;
                break;
            case COLUMN:
                bp = (unsigned)(tp >> (8 * n)) & 255;
                bo = (unsigned)(to >> (8 * n)) & 255;
                break;
            default:
                bp = (unsigned)(((p & w->source_mask[i][j]) * GATHER_MUL) >> 56);
                bo = (unsigned)(((o & w->source_mask[i][j]) * GATHER_MUL) >> 56);
            }
            idx += w->digits[i][j][bp] + 2 * w->digits[i][j][bo];
        }
        s += set[w->offset[i] + idx];
    }
    return s;
}

int tf_evaluate(const void *weights, u64 p, u64 o) { return evaluate(weights, p, o); }

u64 tf_legal_moves(u64 p, u64 o) { return legal_moves(p, o); }

u64 tf_flips(u64 p, u64 o, int sq) {
    if (!rays_ready) make_rays();
    return flips(p, o, sq);
}

/* ---- transposition tables: Python dicts of at most TT_MAX keys ---------------------- */

typedef struct {
    u64 p, o;
    int used;
    int a, b, c, d; /* midgame: depth, flag, value, move; solver: lower, upper, move */
} Entry;

typedef struct {
    Entry slots[TT_SLOTS];
    int count;
} Table;

static Entry *tt_find(Table *t, u64 p, u64 o) {
    u64 h = (p * 0x9E3779B97F4A7C15ULL) ^ (o * 0xC2B2AE3D27D4EB4FULL);
    size_t i = (size_t)(h >> 48) & (TT_SLOTS - 1);
    while (t->slots[i].used && (t->slots[i].p != p || t->slots[i].o != o))
        i = (i + 1) & (TT_SLOTS - 1);
    return &t->slots[i];
}

/* `if len(tt) < TT_MAX or key in tt: tt[key] = value` */
static void tt_store(Table *t, u64 p, u64 o, int a, int b, int c, int d) {
    Entry *e = tt_find(t, p, o);
    if (!e->used) {
        if (t->count >= TT_MAX) return;
        e->used = 1;
        e->p = p;
        e->o = o;
        t->count++;
    }
    e->a = a;
    e->b = b;
    e->c = c;
    e->d = d;
}

/* ---- the search (games/reversi/ai/search.py, Search) -------------------------------- */

typedef struct {
    const Weights *w;
    long long nodes, hard_limit;
    int all_moves;
    int aborted; /* SearchAborted: every caller returns at once, storing nothing */
    Table tt, solve_tt;
} Search;

static void clear_table(Table *t) {
    for (int i = 0; i < TT_SLOTS; i++) t->slots[i].used = 0;
    t->count = 0;
}

#define RETURN_IF_ABORTED \
    if (s->aborted) return 0

typedef struct {
    int key, sq;
    u64 cp, co;
} Child;

static void sort_children(Child *c, int n) { /* by (key, square), as Python sorts tuples */
    for (int i = 1; i < n; i++) {
        Child x = c[i];
        int j = i - 1;
        while (j >= 0 && (c[j].key > x.key || (c[j].key == x.key && c[j].sq > x.sq))) {
            c[j + 1] = c[j];
            j--;
        }
        c[j + 1] = x;
    }
}

static int plain(Search *s, u64 p, u64 o, int depth, int beta) {
    if (depth <= 0) {
        s->nodes++;
        return evaluate(s->w, p, o);
    }
    u64 moves = legal_moves(p, o);
    if (!moves) {
        if (!legal_moves(o, p)) {
            s->nodes++;
            return evaluate(s->w, p, o);
        }
        return -plain(s, o, p, depth, INF);
    }
    int best = -INF;
    s->nodes++;
    while (moves) {
        u64 low = moves & (0 - moves);
        moves ^= low;
        u64 f = flips(p, o, high_bit(low));
        s->nodes++;
        int v = -evaluate(s->w, o ^ f, p | f | low);
        if (v > best) {
            best = v;
            if (v >= beta) break;
        }
    }
    return best;
}

static int pvs(Search *s, u64 p, u64 o, int depth, int alpha, int beta) {
    s->nodes++;
    if (s->nodes > s->hard_limit) {
        s->aborted = 1;
        return 0;
    }
    u64 moves = legal_moves(p, o);
    if (!moves) {
        if (!legal_moves(o, p)) return evaluate(s->w, p, o);
        return -pvs(s, o, p, depth, -beta, -alpha);
    }
    Entry *e = tt_find(&s->tt, p, o);
    int tt_move = -1;
    if (e->used) {
        int e_depth = e->a, e_flag = e->b, e_val = e->c;
        tt_move = e->d;
        if (e_depth >= depth && (e_flag == EXACT || (e_flag == LOWER && e_val >= beta) ||
                                 (e_flag == UPPER && e_val <= alpha)))
            return e_val;
    }
    Child children[64];
    int n = 0;
    while (moves) {
        u64 low = moves & (0 - moves);
        moves ^= low;
        int sq = high_bit(low);
        u64 f = flips(p, o, sq);
        u64 cp = o ^ f, co = p | f | low;
        children[n].key = sq == tt_move ? -INF : evaluate(s->w, cp, co);
        children[n].sq = sq;
        children[n].cp = cp;
        children[n].co = co;
        n++;
    }
    sort_children(children, n);
    int alpha0 = alpha, best = -INF, best_sq = -1, deep = depth - 1 >= 2;
    for (int i = 0; i < n; i++) {
        u64 cp = children[i].cp, co = children[i].co;
        int v;
        if (i == 0) {
            v = deep ? -pvs(s, cp, co, depth - 1, -beta, -alpha) : -plain(s, cp, co, depth - 1, -alpha);
        } else if (deep) {
            v = -pvs(s, cp, co, depth - 1, -alpha - 1, -alpha);
            RETURN_IF_ABORTED;
            if (alpha < v && v < beta) v = -pvs(s, cp, co, depth - 1, -beta, -v);
        } else {
            v = -plain(s, cp, co, depth - 1, -alpha);
        }
        RETURN_IF_ABORTED;
        if (v > best) {
            best = v;
            best_sq = children[i].sq;
            if (v > alpha) {
                alpha = v;
                if (alpha >= beta) break;
            }
        }
    }
    int flag = best >= beta ? LOWER : best > alpha0 ? EXACT : UPPER;
    tt_store(&s->tt, p, o, depth, flag, best, best_sq);
    return best;
}

static int child(Search *s, u64 p, u64 o, int depth, int alpha, int beta) {
    if (depth >= 2) return pvs(s, p, o, depth, alpha, beta);
    return plain(s, p, o, depth, beta);
}

/* ---- exact endgame -------------------------------------------------------------------- */

static const u64 QUADRANTS[4] = {0x0F0F0F0FULL, 0xF0F0F0F0ULL, 0x0F0F0F0FULL << 32,
                                 0xF0F0F0F0ULL << 32};

static int last_empty(u64 p, u64 o, u64 empty) {
    int sq = empty ? high_bit(empty) : -1;
    u64 f = flips(p, o, sq);
    int d = popcount(p) - popcount(o);
    if (f) return d + 2 * popcount(f) + 1;
    f = flips(o, p, sq);
    if (f) return d - 2 * popcount(f) - 1;
    return d;
}

static int solve_plain(Search *s, u64 p, u64 o, int alpha, int beta) {
    s->nodes++;
    u64 empty = ~(p | o);
    if ((empty & (empty - 1)) == 0) return last_empty(p, o, empty);
    u64 moves = legal_moves(p, o);
    if (!moves) {
        if (!legal_moves(o, p)) return popcount(p) - popcount(o);
        return -solve_plain(s, o, p, -beta, -alpha);
    }
    u64 odd = 0;
    for (int q = 0; q < 4; q++)
        if (popcount(empty & QUADRANTS[q]) & 1) odd |= QUADRANTS[q];
    u64 groups[3] = {moves & odd & CORNERS, moves & odd & ~CORNERS, moves & ~odd};
    int best = -INF;
    for (int g = 0; g < 3; g++) {
        u64 group = groups[g];
        while (group) {
            u64 low = group & (0 - group);
            group ^= low;
            u64 f = flips(p, o, high_bit(low));
            int v = -solve_plain(s, o ^ f, p | f | low, -beta, -alpha);
            if (v > best) {
                best = v;
                if (v > alpha) {
                    alpha = v;
                    if (alpha >= beta) return best;
                }
            }
        }
    }
    return best;
}

static int fastest_first(u64 p, u64 o, u64 moves, int tt_move, Child *children) {
    int n = 0;
    while (moves) {
        u64 low = moves & (0 - moves);
        moves ^= low;
        int sq = high_bit(low);
        u64 f = flips(p, o, sq);
        u64 cp = o ^ f, co = p | f | low;
        children[n].key = sq == tt_move ? -100
                                        : popcount(legal_moves(cp, co)) * 4 - (low & CORNERS ? 4 : 0);
        children[n].sq = sq;
        children[n].cp = cp;
        children[n].co = co;
        n++;
    }
    sort_children(children, n);
    return n;
}

static int solve(Search *s, u64 p, u64 o, int alpha, int beta, int empties) {
    s->nodes++;
    if (s->nodes > s->hard_limit) {
        s->aborted = 1;
        return 0;
    }
    u64 moves = legal_moves(p, o);
    if (!moves) {
        if (!legal_moves(o, p)) return popcount(p) - popcount(o);
        return -solve(s, o, p, -beta, -alpha, empties);
    }
    Entry *e = tt_find(&s->solve_tt, p, o);
    int tt_move = -1, lower = -64, upper = 64;
    if (e->used) {
        lower = e->a;
        upper = e->b;
        tt_move = e->c;
        if (lower >= beta) return lower;
        if (upper <= alpha) return upper;
        if (lower > alpha) alpha = lower;
        if (upper < beta) beta = upper;
        if (alpha >= beta) return alpha;
    }
    int alpha0 = alpha, beta0 = beta, best = -INF, best_sq = -1;
    int deep = empties - 1 > PLAIN_EMPTIES;
    Child children[64];
    int n = fastest_first(p, o, moves, tt_move, children);
    for (int i = 0; i < n; i++) {
        u64 cp = children[i].cp, co = children[i].co;
        int v;
        if (i == 0) {
            v = deep ? -solve(s, cp, co, -beta, -alpha, empties - 1) : -solve_plain(s, cp, co, -beta, -alpha);
        } else if (deep) {
            v = -solve(s, cp, co, -alpha - 1, -alpha, empties - 1);
            RETURN_IF_ABORTED;
            if (alpha < v && v < beta) v = -solve(s, cp, co, -beta, -v, empties - 1);
        } else {
            v = -solve_plain(s, cp, co, -alpha - 1, -alpha);
            if (alpha < v && v < beta) v = -solve_plain(s, cp, co, -beta, -v);
        }
        RETURN_IF_ABORTED;
        if (v > best) {
            best = v;
            best_sq = children[i].sq;
            if (v > alpha) {
                alpha = v;
                if (alpha >= beta) break;
            }
        }
    }
    if (best <= alpha0) {
        if (best < upper) upper = best;
    } else if (best >= beta0) {
        if (best > lower) lower = best;
    } else {
        lower = upper = best;
    }
    tt_store(&s->solve_tt, p, o, lower, upper, best_sq, 0);
    return best;
}

static int solve_child(Search *s, u64 p, u64 o, int alpha, int beta, int empties) {
    if (empties > PLAIN_EMPTIES) return solve(s, p, o, alpha, beta, empties);
    return solve_plain(s, p, o, alpha, beta);
}

/* ---- one decision: Search.run --------------------------------------------------------- */

/* What Search.run leaves behind: the SearchResult, the finished iterations and the node
 * counts (`exact_nodes`: the nodes the exact phase took; the rest are midgame nodes). */
typedef struct {
    int move; /* -1: the side to move passes */
    int score, depth, exact;
    long long nodes, exact_nodes;
    int iterations;
    int iter_depth[64], iter_score[64], iter_move[64];
    int scored; /* the result's per-move scores, in the order they were searched */
    int score_square[64], score_value[64];
} Result;

static void root(Search *s, u64 p, u64 o, int depth, const int *order, int n, int *best_out,
                 int *best_sq_out, int *sq_out, int *val_out) {
    int alpha = -INF, beta = INF, best = -INF, best_sq = order[0];
    for (int i = 0; i < n; i++) {
        int sq = order[i];
        u64 f = flips(p, o, sq);
        u64 cp = o ^ f, co = p | f | (1ULL << sq);
        int v;
        if (s->all_moves || i == 0) {
            v = -child(s, cp, co, depth - 1, -INF, INF);
        } else {
            v = -child(s, cp, co, depth - 1, -alpha - 1, -alpha);
            if (s->aborted) return;
            if (v > alpha) v = -child(s, cp, co, depth - 1, -beta, -v);
        }
        if (s->aborted) return;
        sq_out[i] = sq;
        val_out[i] = v;
        if (v > best) {
            best = v;
            best_sq = sq;
            if (v > alpha) alpha = v;
        }
    }
    *best_out = best;
    *best_sq_out = best_sq;
}

/* _solve_root; 0 if the node limit ran out (SearchAborted). */
static int solve_root(Search *s, u64 p, u64 o, u64 moves, int empties, Result *r) {
    Child children[64];
    int n = fastest_first(p, o, moves, -1, children);
    int alpha = -65, beta = 65, best = -INF, best_sq = children[0].sq;
    r->scored = 0;
    for (int i = 0; i < n; i++) {
        u64 cp = children[i].cp, co = children[i].co;
        int v;
        if (s->all_moves || i == 0) {
            v = -solve_child(s, cp, co, -65, 65, empties - 1);
        } else {
            v = -solve_child(s, cp, co, -alpha - 1, -alpha, empties - 1);
            RETURN_IF_ABORTED;
            if (v > alpha) v = -solve_child(s, cp, co, -beta, -v, empties - 1);
        }
        RETURN_IF_ABORTED;
        r->score_square[r->scored] = children[i].sq;
        r->score_value[r->scored] = v * 100;
        r->scored++;
        if (v > best) {
            best = v;
            best_sq = children[i].sq;
            if (v > alpha) alpha = v;
        }
    }
    r->move = best_sq;
    r->score = best * 100;
    r->depth = empties;
    r->exact = 1;
    return 1;
}

/* One midgame iteration (_root); 0 if the node limit ran out inside it. */
static int iteration(Search *s, u64 p, u64 o, int depth, const int *order, int n, int *score,
                     int *move, int *sqs, int *vals) {
    root(s, p, o, depth, order, n, score, move, sqs, vals);
    return !s->aborted;
}

static int run(Search *s, u64 p, u64 o, int max_depth, long long node_limit, int exact_empties,
               long long exact_node_limit, u64 root_moves, Result *r) {
    u64 moves = legal_moves(p, o);
    *r = (Result){0};
    if (!moves) {
        r->move = -1;
        r->score = -evaluate(s->w, o, p);
        return 0;
    }
    moves &= root_moves;
    if (!moves) return -1; /* Python would fail on an empty order */
    int empties = 64 - popcount(p | o);
    if (empties <= exact_empties) {
        s->hard_limit = exact_node_limit ? exact_node_limit : INF;
        int solved = solve_root(s, p, o, moves, empties, r);
        s->aborted = 0;
        r->exact_nodes = s->nodes;
        if (solved) {
            r->nodes = s->nodes;
            return 0;
        }
        r->scored = 0;
    }
    s->hard_limit = s->nodes + node_limit;
    clear_table(&s->tt);
    /* order_root: by the evaluator after each move (its evaluations count no nodes) */
    Child keyed[64];
    int n = 0;
    while (moves) {
        u64 low = moves & (0 - moves);
        moves ^= low;
        int sq = high_bit(low);
        u64 f = flips(p, o, sq);
        keyed[n].key = evaluate(s->w, o ^ f, p | f | low);
        keyed[n].sq = sq;
        n++;
    }
    sort_children(keyed, n);
    int order[64];
    for (int i = 0; i < n; i++) order[i] = keyed[i].sq;
    int have_best = 0;
    int last = max_depth < empties ? max_depth : empties;
    int sqs[64], vals[64];
    for (int depth = 1; depth <= last; depth++) {
        int score, move;
        if (!iteration(s, p, o, depth, order, n, &score, &move, sqs, vals)) break;
        have_best = 1;
        r->move = move;
        r->score = score;
        r->depth = depth;
        r->exact = 0;
        r->scored = n;
        for (int i = 0; i < n; i++) {
            r->score_square[i] = sqs[i];
            r->score_value[i] = vals[i];
        }
        r->iter_depth[r->iterations] = depth;
        r->iter_score[r->iterations] = score;
        r->iter_move[r->iterations] = move;
        r->iterations++;
        int at = 0; /* order.remove(move); order.insert(0, move) */
        while (order[at] != move) at++;
        for (; at > 0; at--) order[at] = order[at - 1];
        order[0] = move;
        if ((score >= WIN || score <= -WIN) && !s->all_moves) break;
        if (s->nodes - (s->hard_limit - node_limit) > node_limit / 3) break;
    }
    if (!have_best) {
        r->move = order[0];
        r->score = 0;
        r->depth = 0;
        r->exact = 0;
        r->scored = 0;
    }
    r->nodes = s->nodes;
    return 0;
}

int tf_search_size(void) { return (int)sizeof(Search); }

/* One whole decision in `search` (tf_search_size bytes of the caller's memory, reused from
 * one decision to the next). Returns 0, or -1 for an empty root mask. */
int tf_search(void *search, const void *weights, u64 p, u64 o, int max_depth,
              long long node_limit, int exact_empties, long long exact_node_limit,
              int all_moves, u64 root_moves, Result *out) {
    Search *s = search;
    s->w = weights;
    s->nodes = 0;
    s->aborted = 0;
    s->all_moves = all_moves;
    clear_table(&s->tt);
    clear_table(&s->solve_tt);
    if (max_depth < 1) max_depth = 1;
    return run(s, p, o, max_depth, node_limit, exact_empties, exact_node_limit, root_moves, out);
}

int tf_result_size(void) { return (int)sizeof(Result); }
