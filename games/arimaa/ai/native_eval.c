/* The compiled accelerator of the Arimaa computer player (issue 36), part 2: the static
 * evaluation and the static tactics.
 *
 * A port of games/arimaa/ai/evaluate.py (`evaluate`, `piece_value`, `best_capture`,
 * `tactics`) and of games/arimaa/ai/tactics.py (`capture_threats`, `goal_steps`): exactly the
 * same integers and threat lists (tests/games/arimaa/test_native.py checks them against the
 * Python modules, the reference, on random positions). Plain C99 without the C library;
 * compiled into one library with native_steps.c, sharing nothing with it but the layout.
 *
 * Squares 0..63 with a1 = 0; boards[side * 6 + kind], kinds rabbit..elephant. */
#include <stdint.h>

typedef uint64_t u64;

#define EXPORT __attribute__((visibility("default")))
#define NONE 99 /* tactics.NONE: more steps than any turn has */
#define FILE_A 0x0101010101010101ULL
#define FILE_H (FILE_A << 7)

static const int PIECE_VALUE[11] = {900, 620, 460, 380, 320, 280, 250, 230, 215, 205, 200};
static const int RABBIT_TOTAL[9] = {0, 700, 1150, 1500, 1780, 2000, 2190, 2360, 2520};
static const int RABBIT_ROW[8] = {0, 0, 10, 25, 45, 90, 160, 0};
#define FROZEN_FRACTION 8
#define TRAP_CONTROL 45
#define TRAP_STRONGEST 25
#define CAPTURE_SHARE_NUM 3
#define CAPTURE_SHARE_DEN 4
static const int GOAL_THREAT[5] = {0, 300, 200, 120, 60};
#define GOAL_THREATENED 150
#define GOAL_NOW 3000
static const int TRAP_SQ[4] = {18, 21, 42, 45};
static const u64 GOAL_RANK[2] = {0xFF00000000000000ULL, 0xFFULL};
#define TRAPS ((1ULL << 18) | (1ULL << 21) | (1ULL << 42) | (1ULL << 45))
#define MAX_RADIUS 15

static u64 NB[64];
static u64 RABBIT_NB[2][64];
static u64 WITHIN[MAX_RADIUS + 1][64]; /* tactics.WITHIN: Manhattan distance <= r */

static int popcount(u64 b) { return __builtin_popcountll(b); }
static int low_sq(u64 b) { return __builtin_ctzll(b); }
/* Python's // (rounds down) */
static int floordiv(int a, int b) {
    int q = a / b;
    return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}
static u64 around(u64 m) { return m << 8 | m >> 8 | (m & ~FILE_H) << 1 | (m & ~FILE_A) >> 1; }

static void init_tables(void) {
    for (int sq = 0; sq < 64; sq++) {
        NB[sq] = around(1ULL << sq);
        RABBIT_NB[0][sq] = NB[sq] & ~(sq >= 8 ? 1ULL << (sq - 8) : 0);
        RABBIT_NB[1][sq] = NB[sq] & ~(sq < 56 ? 1ULL << (sq + 8) : 0);
        for (int r = 0; r <= MAX_RADIUS; r++) {
            u64 m = 0;
            for (int o = 0; o < 64; o++) {
                int dr = sq / 8 - o / 8, df = sq % 8 - o % 8;
                if ((dr < 0 ? -dr : dr) + (df < 0 ? -df : df) <= r) m |= 1ULL << o;
            }
            WITHIN[r][sq] = m;
        }
    }
}

EXPORT int ari_eval_init(void) {
    init_tables();
    return 0;
}

/* ------------------------------------------------------------------ evaluate.evaluate */

static int side_value(const u64 *own, const u64 *enemy, int side) {
    int c[6], e[6];
    for (int k = 0; k < 6; k++) {
        c[k] = popcount(own[k]);
        e[k] = popcount(enemy[k]);
    }
    int value = RABBIT_TOTAL[c[0] < 8 ? c[0] : 8];
    u64 m = own[0] | own[1] | own[2] | own[3] | own[4] | own[5];
    u64 loose = ~around(m);
    value += PIECE_VALUE[0] * c[5];
    int stronger = e[5];
    u64 mask = enemy[5];
    for (int k = 4; k >= 1; k--) {
        int pv = PIECE_VALUE[stronger < 10 ? stronger : 10];
        value += pv * c[k];
        if (mask && (own[k] & loose)) {
            u64 f = own[k] & loose & around(mask);
            if (f) value -= popcount(f) * pv / FROZEN_FRACTION;
        }
        stronger += e[k];
        mask |= enemy[k];
    }
    u64 o0 = own[0];
    if (o0) {
        if (mask && (o0 & loose)) {
            u64 f = o0 & loose & around(mask);
            if (f) value -= popcount(f) * 100 / FROZEN_FRACTION;
        }
        int thin = 16 - (e[1] + e[2] + e[3] + e[4] + e[5]);
        for (int row = 2; row < 7; row++) {
            int shift = 8 * (side == 0 ? row : 7 - row);
            int n = popcount(o0 & (0xFFULL << shift));
            if (n) value += n * floordiv(RABBIT_ROW[row] * (8 + thin), 8);
        }
    }
    return value;
}

EXPORT int ari_evaluate(const u64 *b) {
    int score = side_value(b, b + 6, 0) - side_value(b + 6, b, 1);
    u64 gold = b[0] | b[1] | b[2] | b[3] | b[4] | b[5];
    u64 silver = b[6] | b[7] | b[8] | b[9] | b[10] | b[11];
    for (int t = 0; t < 4; t++) {
        u64 trap = 1ULL << TRAP_SQ[t], tn = NB[TRAP_SQ[t]];
        u64 g = tn & gold, s = tn & silver;
        if (!(g || s)) continue;
        int gc = popcount(g), sc = popcount(s);
        if (gc >= 2 && gc > sc)
            score += TRAP_CONTROL;
        else if (sc >= 2 && sc > gc)
            score -= TRAP_CONTROL;
        for (int k = 5; k >= 0; k--) {
            u64 gk = b[k] & tn, sk = b[6 + k] & tn;
            if (gk || sk) {
                if (!sk)
                    score += TRAP_STRONGEST;
                else if (!gk)
                    score -= TRAP_STRONGEST;
                break;
            }
        }
        if ((gold & trap) && gc == 1 && sc >= 1) score -= 60;
        if ((silver & trap) && sc == 1 && gc >= 1) score += 60;
    }
    return score;
}

/* ------------------------------------------------------------------ tactics.goal_steps */

EXPORT int ari_goal_steps(const u64 *boards, int side, int limit) {
    u64 rabbits = boards[6 * side];
    u64 goal = GOAL_RANK[side];
    if (rabbits & goal) return 0;
    int n = limit < 7 ? limit : 7;
    u64 within = side == 0 ? ~((1ULL << (8 * (7 - n))) - 1)
                           : (n == 7 ? ~0ULL : (1ULL << (8 * (n + 1))) - 1);
    if (n < 0 || !(rabbits & within)) return NONE;
    u64 gold = boards[0] | boards[1] | boards[2] | boards[3] | boards[4] | boards[5];
    u64 silver = boards[6] | boards[7] | boards[8] | boards[9] | boards[10] | boards[11];
    u64 mine = side == 0 ? gold : silver, theirs = side == 0 ? silver : gold;
    u64 empty = ~(gold | silver);
    u64 near_friend = around(mine);
    u64 frozen = around(theirs & ~boards[6 - 6 * side]) & ~near_friend;
    u64 blocked = empty & TRAPS & ~near_friend;
    u64 layer = rabbits & ~frozen;
    u64 visited = layer, delayed = 0;
    for (int k = 1; k <= limit; k++) {
        u64 f = layer & ~frozen;
        u64 step = (side == 0 ? f << 8 : f >> 8) | (f & ~FILE_H) << 1 | (f & ~FILE_A) >> 1;
        step &= ~visited;
        u64 arrived = (step & empty & ~blocked) | delayed;
        if (arrived & goal) return k;
        delayed = step & mine;
        visited |= arrived | delayed;
        layer = arrived;
        if (!layer && !delayed) break;
    }
    return NONE;
}

/* ------------------------------------------------------------- tactics.capture_threats */

typedef struct {
    u64 boards[12];
    int side;
    u64 mine, theirs, empty;
    u64 stronger_theirs[6];
} Board;

typedef struct {
    int32_t victim, index, trap, steps;
} Threat;

#define MAX_THREATS 128

static void board_init(Board *b, const u64 *boards, int side) {
    for (int i = 0; i < 12; i++) b->boards[i] = boards[i];
    b->side = side;
    u64 gold = boards[0] | boards[1] | boards[2] | boards[3] | boards[4] | boards[5];
    u64 silver = boards[6] | boards[7] | boards[8] | boards[9] | boards[10] | boards[11];
    b->mine = side == 0 ? gold : silver;
    b->theirs = side == 0 ? silver : gold;
    b->empty = ~(gold | silver);
    int ebase = 6 - 6 * side;
    u64 acc = 0;
    for (int k = 5; k >= 0; k--) {
        b->stronger_theirs[k] = acc;
        acc |= boards[ebase + k];
    }
}

static int index_at(const Board *b, int sq) {
    u64 bit = 1ULL << sq;
    for (int i = 0; i < 12; i++)
        if (b->boards[i] & bit) return i;
    return -1;
}

static int pymod6(int i) { return ((i % 6) + 6) % 6; }

static int frozen_at(const Board *b, int sq, int kind, u64 friends) {
    u64 n = NB[sq];
    return !(n & friends) && (n & b->stronger_theirs[kind]);
}

static u64 within(int r, int sq) { return WITHIN[r < 0 ? 0 : r > MAX_RADIUS ? MAX_RADIUS : r][sq]; }

static int approach(const Board *b, int start, int kind, u64 others, int victim, u64 dests,
                    u64 push_to, int limit) {
    u64 vnb = NB[victim];
    u64 frontier = 1ULL << start, seen = frontier;
    for (int dist = 1; dist <= limit; dist++) {
        u64 nxt = 0, f = frontier;
        while (f) {
            int sq = low_sq(f);
            f &= f - 1;
            if (dist > 1 && frozen_at(b, sq, kind, others)) continue;
            nxt |= NB[sq] & b->empty & ~seen;
        }
        for (int t = 0; t < 4; t++)
            if ((nxt >> TRAP_SQ[t] & 1) && !(NB[TRAP_SQ[t]] & others)) nxt ^= 1ULL << TRAP_SQ[t];
        if (!nxt) return NONE;
        u64 arrived = nxt & vnb;
        while (arrived) {
            u64 low = arrived & -arrived;
            arrived ^= low;
            int y = low_sq(low);
            if (frozen_at(b, y, kind, others)) continue;
            if ((push_to & ~low) || (dests & low)) return dist;
        }
        seen |= nxt;
        frontier = nxt;
    }
    return NONE;
}

/* tactics._move_cost: steps, and the attacker's square in *who (-1 beyond the budget) */
static int move_cost(const Board *b, int victim, int vkind, u64 dests, int budget, u64 busy,
                     int *who) {
    *who = -1;
    if (budget < 2) return NONE;
    int base = 6 * b->side;
    u64 vnb = NB[victim];
    u64 push_to = vnb & b->empty & dests;
    int best = NONE, bw = -1;
    for (int k = vkind + 1; k < 6; k++) {
        u64 pieces = b->boards[base + k] & ~busy & within(budget - 1, victim);
        while (pieces) {
            u64 low = pieces & -pieces;
            pieces ^= low;
            int a = low_sq(low);
            u64 others = b->mine ^ low;
            if (frozen_at(b, a, k, others)) continue;
            if (vnb & low) {
                if (push_to || ((dests >> a & 1) && (NB[a] & b->empty))) {
                    *who = a;
                    return 2;
                }
                continue;
            }
            int cost = approach(b, a, k, others, victim, dests, push_to, budget - 2);
            if (cost + 2 < best) {
                best = cost + 2;
                bw = a;
            }
        }
    }
    if (best <= budget) {
        *who = bw;
        return best;
    }
    return NONE;
}

static int attackable(const Board *b, int v, int steps) {
    int vkind = pymod6(index_at(b, v));
    int base = 6 * b->side;
    u64 strong = 0;
    for (int k = vkind + 1; k < 6; k++) strong |= b->boards[base + k];
    return (strong & within(steps - 1 > 1 ? steps - 1 : 1, v)) != 0;
}

static int remove_defenders(const Board *b, u64 defenders, int trap, int budget, u64 *busy) {
    int total = 0;
    *busy = 0;
    u64 not_trap = ~(1ULL << trap);
    while (defenders) {
        int d = low_sq(defenders);
        defenders &= defenders - 1;
        int who;
        int cost = move_cost(b, d, pymod6(index_at(b, d)), not_trap, budget - total, *busy, &who);
        total += cost;
        if (total > budget) return NONE;
        *busy |= 1ULL << who;
    }
    return total;
}

static int onto_trap(const Board *b, int v, int trap, int budget, u64 busy) {
    u64 tbit = 1ULL << trap;
    int vkind = pymod6(index_at(b, v));
    int who;
    if (b->empty & tbit) return move_cost(b, v, vkind, tbit, budget, busy, &who);
    int ai = index_at(b, trap);
    if (budget < 2 || ai / 6 != b->side) return NONE;
    int akind = ai % 6;
    if (frozen_at(b, trap, akind, b->mine ^ tbit)) return NONE;
    u64 exits = NB[trap] & b->empty;
    if (akind > vkind && exits && !(busy & tbit)) return 2;
    int best = NONE;
    u64 ys = budget >= 3 ? exits : 0;
    while (ys) {
        int y = low_sq(ys);
        ys &= ys - 1;
        if (akind == 0 && ((RABBIT_NB[b->side][trap] >> y) & 1) == 0) continue;
        u64 nbds[12];
        for (int i = 0; i < 12; i++) nbds[i] = b->boards[i];
        nbds[ai] ^= tbit | (1ULL << y);
        Board nb;
        board_init(&nb, nbds, b->side);
        int cost = move_cost(&nb, v, vkind, tbit, budget - 1, busy | (1ULL << y), &who);
        if (cost + 1 < best) best = cost + 1;
    }
    return best <= budget ? best : NONE;
}

static void two_squares_away(const Board *b, int trap, Threat *out, int *n) {
    int side = b->side;
    u64 tbit = 1ULL << trap;
    int first = *n;
    if (!(b->theirs & WITHIN[2][trap]) || !((b->empty | b->mine) & tbit)) return;
    u64 xs = NB[trap] & ~b->theirs;
    while (xs) {
        int x = low_sq(xs);
        xs &= xs - 1;
        u64 xbit = 1ULL << x;
        u64 vs = NB[x] & b->theirs & ~tbit;
        while (vs) {
            int v = low_sq(vs);
            vs &= vs - 1;
            int vi = index_at(b, v), vkind = pymod6(vi);
            int dup = 0;
            for (int i = first; i < *n; i++) dup |= out[i].victim == v;
            if (dup) continue;
            u64 as = (b->empty & xbit) ? (NB[v] & b->mine) : (xbit & b->mine);
            int found = 0;
            while (as && !found) {
                int a = low_sq(as);
                as &= as - 1;
                int ai = index_at(b, a), akind = pymod6(ai);
                if (akind <= vkind || frozen_at(b, a, akind, b->mine ^ (1ULL << a))) continue;
                u64 tos = a != x ? (1ULL << v) : (NB[x] & b->empty);
                while (tos) {
                    int to = low_sq(tos);
                    tos &= tos - 1;
                    u64 nbds[12];
                    for (int i = 0; i < 12; i++) nbds[i] = b->boards[i];
                    nbds[vi] ^= (1ULL << v) | xbit;
                    nbds[ai] ^= (1ULL << a) | (1ULL << to);
                    if (to == trap && !(NB[trap] & (b->mine ^ (1ULL << a)))) continue;
                    Board nb;
                    board_init(&nb, nbds, side);
                    if (onto_trap(&nb, x, trap, 2, 0) <= 2) {
                        if (*n < MAX_THREATS)
                            out[(*n)++] = (Threat){v, vi, trap, 4};
                        found = 1;
                        break;
                    }
                }
            }
        }
    }
}

/* tactics.capture_threats into `out` (at most MAX_THREATS), cheapest first (a stable
 * sort, as Python's); returns how many. */
EXPORT int ari_capture_threats(const u64 *boards, int side, int steps, Threat *out) {
    Board b;
    board_init(&b, boards, side);
    int n = 0;
    for (int t = 0; t < 4; t++) {
        int trap = TRAP_SQ[t];
        u64 tbit = 1ULL << trap;
        u64 defenders = NB[trap] & b.theirs;
        u64 busy;
        if (b.theirs & tbit) {
            int total = remove_defenders(&b, defenders, trap, steps, &busy);
            if (total <= steps && n < MAX_THREATS)
                out[n++] = (Threat){trap, index_at(&b, trap), trap, total};
            continue;
        }
        u64 ds = defenders;
        while (ds) {
            int v = low_sq(ds);
            ds &= ds - 1;
            u64 vbit = 1ULL << v;
            if (!attackable(&b, v, steps)) continue;
            int total = remove_defenders(&b, defenders ^ vbit, trap, steps - 2, &busy);
            if (total > steps - 2) continue;
            total += onto_trap(&b, v, trap, steps - total, busy);
            if (total <= steps && n < MAX_THREATS)
                out[n++] = (Threat){v, index_at(&b, v), trap, total};
        }
        if (steps >= 4 && !defenders) two_squares_away(&b, trap, out, &n);
    }
    for (int i = 1; i < n; i++) { /* insertion sort: stable */
        Threat x = out[i];
        int j = i - 1;
        while (j >= 0 && out[j].steps > x.steps) {
            out[j + 1] = out[j];
            j--;
        }
        out[j + 1] = x;
    }
    return n;
}

/* ------------------------------------------------------------------ evaluate.tactics */

EXPORT int ari_piece_value(const u64 *boards, int index) {
    int side = index / 6, kind = index % 6;
    if (kind == 0) {
        int n = popcount(boards[index]);
        if (n > 8) n = 8;
        return n ? RABBIT_TOTAL[n] - RABBIT_TOTAL[n - 1] : 0;
    }
    int ebase = 6 - 6 * side, stronger = 0;
    for (int k = kind + 1; k < 6; k++) stronger += popcount(boards[ebase + k]);
    return PIECE_VALUE[stronger < 10 ? stronger : 10];
}

EXPORT int ari_best_capture(const u64 *boards, int side, int steps_left) {
    Threat t[MAX_THREATS];
    int n = ari_capture_threats(boards, side, steps_left, t);
    int best = 0;
    for (int i = 0; i < n; i++) {
        int v = ari_piece_value(boards, t[i].index);
        if (v > best) best = v;
    }
    return best;
}

EXPORT int ari_tactics(const u64 *boards, int side, int steps_left, int capture_floor) {
    int best = ari_best_capture(boards, side, steps_left);
    if (capture_floor > best) best = capture_floor;
    int score = floordiv(best * CAPTURE_SHARE_NUM, CAPTURE_SHARE_DEN);
    if (boards[6 * side]) {
        int steps = ari_goal_steps(boards, side, steps_left + 4);
        if (steps <= steps_left)
            score += GOAL_NOW;
        else if (steps <= steps_left + 4)
            score += GOAL_THREAT[steps - steps_left];
    }
    if (boards[6 - 6 * side] && ari_goal_steps(boards, 1 - side, 4) <= 4) score -= GOAL_THREATENED;
    return score;
}

EXPORT int ari_threat_size(void) { return (int)sizeof(Threat); }
