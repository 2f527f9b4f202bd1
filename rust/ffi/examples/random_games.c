/* Plays cardnet games from C through the cardnet-ffi library, checks what a C caller relies on, and
 * reports the speed of the hot loop.
 *
 *   gcc -std=c11 -Wall -Wextra -Werror -I rust/ffi/include rust/ffi/examples/random_games.c \
 *       -L target/release -lcardnet_ffi -o random_games && ./random_games [GAMES] [SEED]
 *
 * It plays GAMES (default 2000) uniformly random 4-player Matchstick Tycoon games with the typed calls
 * (cardnet_decision + cardnet_apply_index), then checks the JSON calls, the error codes, save and load,
 * the built-in players and the segment transforms. The last line is one JSON document with the speed;
 * the exit status is non-zero when any check failed. Every string and handle it receives is freed, so
 * that a build with -fsanitize=address reports any leak or misuse on either side of the boundary. */

/* clock_gettime and CLOCK_MONOTONIC are POSIX, not C11. */
#define _POSIX_C_SOURCE 199309L

#include "cardnet.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int failures = 0;
static int checks = 0;

static void check(int ok, const char *what) {
    checks++;
    if (!ok) {
        failures++;
        fprintf(stderr, "FAILED: %s (last error: %s: %s)\n", what, cardnet_last_error_code(),
                cardnet_last_error_message());
    }
}

/* Stops the program when a call that must succeed did not: nothing after it would mean anything. */
static void must(CardnetStatus status, const char *what) {
    if (status != CARDNET_STATUS_OK) {
        fprintf(stderr, "FATAL: %s returned %d (%s: %s)\n", what, (int)status, cardnet_last_error_code(),
                cardnet_last_error_message());
        exit(2);
    }
}

/* A refusal with the expected status and stable code. */
static void refused(CardnetStatus status, CardnetStatus expected, const char *code, const char *what) {
    check(status == expected && strcmp(cardnet_last_error_code(), code) == 0, what);
}

/* xorshift64*: the C side's own uniform choices; the deals come from the library's seeds. */
static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static size_t pick(size_t count) {
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return (size_t)((rng_state * 0x2545F4914F6CDD1Dull) % count);
}

static double now_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static CardnetGame *new_game(const char *game, int players, uint64_t seed) {
    char setup[160];
    snprintf(setup, sizeof setup, "{\"game\":\"%s\",\"players\":%d,\"seed\":%llu}", game, players,
             (unsigned long long)seed);
    CardnetGame *g = NULL;
    must(cardnet_game_new(setup, &g), "cardnet_game_new");
    return g;
}

/* Plays `g` to its end with uniform random moves; returns the number of decisions. */
static long play_random(CardnetGame *g) {
    long decisions = 0;
    int32_t seat;
    size_t count;
    for (;;) {
        must(cardnet_decision(g, &seat, &count), "cardnet_decision");
        if (seat < 0) {
            return decisions;
        }
        must(cardnet_apply_index(g, (uint32_t)seat, pick(count)), "cardnet_apply_index");
        decisions++;
    }
}

static void check_hot_loop_calls(void) {
    CardnetGame *g = new_game("matchstick", 4, 1);
    uint32_t mask = 0;
    must(cardnet_to_act(g, &mask), "cardnet_to_act");
    check(mask != 0 && (mask & ~0xFu) == 0, "some of the four seats are to act");
    int32_t seat;
    size_t count;
    must(cardnet_decision(g, &seat, &count), "cardnet_decision");
    check(seat >= 0 && (mask & (1u << seat)) != 0, "the decision's seat is to act");
    size_t legal = 0;
    must(cardnet_legal_count(g, (uint32_t)seat, &legal), "cardnet_legal_count");
    check(legal == count && legal > 0, "the decision's count is the legal count");
    bool over = true;
    must(cardnet_is_over(g, &over), "cardnet_is_over");
    check(!over, "a new game is not over");
    char hash[CARDNET_STATE_HASH_SIZE];
    must(cardnet_state_hash(g, hash, sizeof hash), "cardnet_state_hash");
    check(strlen(hash) == 64, "the state hash is 64 hex digits");
    play_random(g);
    must(cardnet_is_over(g, &over), "cardnet_is_over");
    check(over, "a played game is over");
    must(cardnet_to_act(g, &mask), "cardnet_to_act");
    check(mask == 0, "nobody acts once over");
    char *outcome = NULL;
    must(cardnet_outcome_json(g, &outcome), "cardnet_outcome_json");
    check(strstr(outcome, "\"kind\":\"ranking\"") != NULL, "a Matchstick outcome is a ranking");
    cardnet_string_free(outcome);
    cardnet_game_free(g);
}

static void check_json_calls(void) {
    CardnetGame *g = new_game("fistful", 2, 7);
    char *setup = NULL;
    must(cardnet_game_setup_json(g, &setup), "cardnet_game_setup_json");
    check(strstr(setup, "\"game\":\"fistful\"") != NULL && strstr(setup, "\"seed\":7") != NULL,
          "the setup names the game and seed");
    cardnet_string_free(setup);

    int32_t seat;
    size_t count;
    must(cardnet_decision(g, &seat, &count), "cardnet_decision");
    char *moves = NULL;
    must(cardnet_legal_moves_json(g, (uint32_t)seat, &moves), "cardnet_legal_moves_json");
    check(moves[0] == '[', "legal moves are a JSON array");
    char *first = NULL;
    must(cardnet_legal_move_json(g, (uint32_t)seat, 0, &first), "cardnet_legal_move_json");
    check(strstr(moves, first) != NULL, "the first listed move is in the list");
    size_t index = 99;
    must(cardnet_index_of(g, (uint32_t)seat, first, &index), "cardnet_index_of");
    check(index == 0, "the first listed move ranks 0");
    must(cardnet_apply_json(g, (uint32_t)seat, first), "cardnet_apply_json");
    cardnet_string_free(first);
    cardnet_string_free(moves);

    char *view = NULL;
    must(cardnet_view_json(g, seat, &view), "cardnet_view_json");
    check(strncmp(view, "{\"private\":{", 12) == 0, "a seat's view has a private part");
    char *spectator = NULL;
    must(cardnet_view_json(g, CARDNET_SPECTATOR, &spectator), "cardnet_view_json spectator");
    check(strncmp(spectator, "{\"private\":null", 15) == 0, "a spectator's view has no private part");
    char *events = NULL;
    must(cardnet_events_json(g, CARDNET_SPECTATOR, &events), "cardnet_events_json");
    check(events[0] == '[', "events are a JSON array");
    cardnet_string_free(events);

    /* A bot that has only its view: rebuild a full game from it and search on that. */
    CardnetGame *guess = NULL;
    must(cardnet_game_from_view("{\"game\":\"fistful\",\"players\":2}", seat, view, 3, &guess),
         "cardnet_game_from_view");
    char *guessed_view = NULL;
    must(cardnet_view_json(guess, seat, &guessed_view), "cardnet_view_json of a rebuilt game");
    check(strcmp(view, guessed_view) == 0, "a game rebuilt from a view shows that view");
    char *refused_save = NULL;
    refused(cardnet_game_save_json(guess, &refused_save), CARDNET_STATUS_ILLEGAL_MOVE, "determinized",
            "a rebuilt game cannot be saved");
    check(refused_save == NULL, "a refused call leaves its out-parameter alone");
    cardnet_string_free(guessed_view);
    cardnet_game_free(guess);
    cardnet_string_free(spectator);
    cardnet_string_free(view);

    char *games = NULL;
    must(cardnet_games_json(&games), "cardnet_games_json");
    check(strstr(games, "\"name\":\"matchstick\"") && strstr(games, "\"name\":\"ten\""), "every game is listed");
    cardnet_string_free(games);
    cardnet_game_free(g);
}

static void check_save_load_clone(void) {
    CardnetGame *g = new_game("cherki", 4, 11);
    int32_t seat;
    size_t count;
    for (int i = 0; i < 12; i++) {
        must(cardnet_decision(g, &seat, &count), "cardnet_decision");
        if (seat < 0) {
            break;
        }
        must(cardnet_apply_index(g, (uint32_t)seat, pick(count)), "cardnet_apply_index");
    }
    char *save = NULL;
    must(cardnet_game_save_json(g, &save), "cardnet_game_save_json");
    CardnetGame *loaded = NULL;
    must(cardnet_game_load(save, &loaded), "cardnet_game_load");
    CardnetGame *copy = NULL;
    must(cardnet_game_clone(g, &copy), "cardnet_game_clone");
    char a[CARDNET_STATE_HASH_SIZE], b[CARDNET_STATE_HASH_SIZE], c[CARDNET_STATE_HASH_SIZE];
    must(cardnet_state_hash(g, a, sizeof a), "hash");
    must(cardnet_state_hash(loaded, b, sizeof b), "hash of the loaded game");
    must(cardnet_state_hash(copy, c, sizeof c), "hash of the copy");
    check(strcmp(a, b) == 0 && strcmp(a, c) == 0, "a loaded game and a copy hash like the original");
    size_t moves = 0;
    must(cardnet_move_count(loaded, &moves), "cardnet_move_count");
    check(moves == 12, "the loaded game kept its 12 moves");
    CardnetGame *corrupt = NULL;
    save[strlen(save) / 2] = '#';
    refused(cardnet_game_load(save, &corrupt), CARDNET_STATUS_CORRUPT_STATE, "corrupt_state",
            "a damaged save is refused");
    check(corrupt == NULL, "a refused load makes no handle");

    /* A determinized copy (what a search samples) saves as its recipe and loads back to the same state. */
    CardnetGame *sample = NULL, *sample_loaded = NULL;
    must(cardnet_game_determinize(g, 1, 99, &sample), "cardnet_game_determinize");
    char *sample_save = NULL;
    must(cardnet_game_save_json(sample, &sample_save), "cardnet_game_save_json of a determinized copy");
    must(cardnet_game_load(sample_save, &sample_loaded), "cardnet_game_load of a determinized copy");
    char d[CARDNET_STATE_HASH_SIZE], e[CARDNET_STATE_HASH_SIZE];
    must(cardnet_state_hash(sample, d, sizeof d), "hash of the determinized copy");
    must(cardnet_state_hash(sample_loaded, e, sizeof e), "hash of the loaded copy");
    check(strcmp(d, e) == 0, "a determinized copy loads back to the same state");
    cardnet_string_free(sample_save);
    cardnet_game_free(sample_loaded);
    cardnet_game_free(sample);

    cardnet_string_free(save);
    cardnet_game_free(copy);
    cardnet_game_free(loaded);
    cardnet_game_free(g);
}

static void check_refusals(void) {
    CardnetGame *g = NULL;
    refused(cardnet_game_new("{\"game\":\"chess\"}", &g), CARDNET_STATUS_UNKNOWN_GAME, "unknown_game",
            "an unknown game");
    refused(cardnet_game_new("{\"game\":\"matchstick\",\"players\":9}", &g), CARDNET_STATUS_BAD_OPTIONS,
            "bad_options", "nine Matchstick players");
    refused(cardnet_game_new("{\"game\":\"matchstick\",\"colour\":1}", &g), CARDNET_STATUS_BAD_OPTIONS,
            "bad_options", "an unknown setup key");
    refused(cardnet_game_new("not json", &g), CARDNET_STATUS_BAD_OPTIONS, "bad_options", "a setup that is not JSON");
    refused(cardnet_game_new(NULL, &g), CARDNET_STATUS_INVALID_ARGUMENT, "invalid_argument", "a null setup");
    refused(cardnet_game_new("{\"game\":\"matchstick\"}", NULL), CARDNET_STATUS_INVALID_ARGUMENT,
            "invalid_argument", "a null out-parameter");
    check(g == NULL, "refused starts make no handle");

    g = new_game("matchstick", 4, 5);
    int32_t seat;
    size_t count;
    must(cardnet_decision(g, &seat, &count), "cardnet_decision");
    char before[CARDNET_STATE_HASH_SIZE], after[CARDNET_STATE_HASH_SIZE];
    must(cardnet_state_hash(g, before, sizeof before), "hash");
    refused(cardnet_apply_index(g, (uint32_t)seat, count), CARDNET_STATUS_ILLEGAL_MOVE, "no_such_move",
            "an index past the legal moves");
    refused(cardnet_apply_index(g, (uint32_t)((seat + 1) % 4), 0), CARDNET_STATUS_ILLEGAL_MOVE, "not_your_turn",
            "a seat not to act");
    refused(cardnet_apply_index(g, 99, 0), CARDNET_STATUS_ILLEGAL_MOVE, "no_such_seat", "a seat past the table");
    refused(cardnet_apply_json(g, (uint32_t)seat, "{\"type\":\"fly\"}"), CARDNET_STATUS_INVALID_MOVE,
            "invalid_move", "a move of no known type");
    refused(cardnet_apply_json(g, (uint32_t)seat, "{"), CARDNET_STATUS_INVALID_MOVE, "invalid_move",
            "a move that is not JSON");
    must(cardnet_state_hash(g, after, sizeof after), "hash");
    check(strcmp(before, after) == 0, "refused moves change nothing");

    char *view = NULL;
    refused(cardnet_view_json(g, 99, &view), CARDNET_STATUS_ILLEGAL_MOVE, "no_such_seat",
            "the view of a seat past the table");
    refused(cardnet_view_json(g, -2, &view), CARDNET_STATUS_INVALID_ARGUMENT, "invalid_argument",
            "an observer below -1");
    check(view == NULL, "refused views return no string");
    char small[10];
    refused(cardnet_state_hash(g, small, sizeof small), CARDNET_STATUS_INVALID_ARGUMENT, "invalid_argument",
            "a hash buffer too small");
    size_t legal;
    refused(cardnet_legal_count(NULL, 0, &legal), CARDNET_STATUS_INVALID_ARGUMENT, "invalid_argument",
            "a null handle");
    size_t chosen;
    refused(cardnet_choose(g, (uint32_t)seat, "grandmaster", 1, &chosen), CARDNET_STATUS_BAD_OPTIONS,
            "bad_options", "an unknown built-in player");
    check(strlen(cardnet_last_error_message()) > 0, "a refusal has a message");
    char *not_yours = NULL;
    refused(cardnet_legal_moves_json(g, (uint32_t)((seat + 1) % 4), &not_yours), CARDNET_STATUS_ILLEGAL_MOVE,
            "not_your_turn", "the legal moves of a seat not to act");
    cardnet_game_free(g);
    cardnet_game_free(NULL);
    cardnet_string_free(NULL);
}

static void check_players_and_segments(void) {
    CardnetGame *g = new_game("ten", 3, 2);
    int32_t seat;
    size_t count;
    int steps = 0;
    for (must(cardnet_decision(g, &seat, &count), "cardnet_decision"); seat >= 0 && steps < 400; steps++) {
        size_t index = count;
        must(cardnet_choose(g, (uint32_t)seat, "heuristic", (uint64_t)steps, &index), "cardnet_choose");
        check(index < count, "a built-in player picks a legal index");
        must(cardnet_apply_index(g, (uint32_t)seat, index), "cardnet_apply_index");
        must(cardnet_decision(g, &seat, &count), "cardnet_decision");
    }
    check(seat < 0, "heuristic players finish a game of TEN");
    cardnet_game_free(g);

    char *transforms = NULL;
    must(cardnet_segment_transforms_json("69", false, &transforms), "cardnet_segment_transforms_json");
    check(strstr(transforms, "{\"added\":\"\",\"matchsticks\":0,\"rotated\":false,\"value\":\"6\"}") != NULL,
          "a 6/9 card shows 6 upright with no matchstick");
    check(strstr(transforms, "{\"added\":\"\",\"matchsticks\":0,\"rotated\":true,\"value\":\"9\"}") != NULL,
          "a 6/9 card shows 9 turned with no matchstick");
    cardnet_string_free(transforms);
    refused(cardnet_segment_transforms_json("Z", false, &transforms), CARDNET_STATUS_INVALID_ARGUMENT,
            "invalid_argument", "an unknown card type");
}

int main(int argc, char **argv) {
    long games = argc > 1 ? atol(argv[1]) : 2000;
    uint64_t seed = argc > 2 ? strtoull(argv[2], NULL, 10) : 1;
    check(strlen(cardnet_version()) > 0, "the library has a version");

    check_hot_loop_calls();
    check_json_calls();
    check_save_load_clone();
    check_refusals();
    check_players_and_segments();

    long decisions = 0;
    double start = now_seconds();
    for (long i = 0; i < games; i++) {
        CardnetGame *g = new_game("matchstick", 4, cardnet_derive_seed(seed, (uint64_t)i));
        decisions += play_random(g);
        cardnet_game_free(g);
    }
    double elapsed = now_seconds() - start;
    if (elapsed <= 0) {
        elapsed = 1e-9;
    }
    fprintf(stderr, "%d checks, %d failed\n", checks, failures);
    printf("{\"benchmark\":\"ffi_c\",\"game\":\"matchstick\",\"players\":4,\"games\":%ld,\"decisions\":%ld,"
           "\"games_per_s\":%.0f,\"decisions_per_s\":%.0f}\n",
           games, decisions, games / elapsed, decisions / elapsed);
    return failures == 0 ? 0 : 1;
}
