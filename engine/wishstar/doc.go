// Package wishstar is Wish Upon a Star (GAME_RULES.md WS-1..WS-12): a 5x3,
// 243-ways game with wild reels 2 and 4, wild-reel bonus wins, Bonus-scatter
// free spins with doubled wins, and the Lock & Spin jackpot feature. The math
// model (reel strips and tables) is data, embedded from model/wishstar.json;
// its SHA-256 is the model id. Play draws every random event from an
// engine.Source so engine.Mirror can replay a round; Exact computes the
// theoretical figures by combinatorics, independently of Play.
package wishstar
