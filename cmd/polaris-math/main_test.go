package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func runCmd(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(context.Background(), args, strings.NewReader(stdin), &out, &errb, false)
	return code, out.String(), errb.String()
}

func TestEvalGood(t *testing.T) {
	code, out, _ := runCmd(t, `{"game":"magicstars","stake":100,"screen":[["CHERRY","CHERRY*","CHERRY"],["CHERRY*","CHERRY","CHERRY"],["CHERRY","CHERRY","CHERRY*"]],"freeSpin":false}`, "eval")
	var got evalOut
	if code != 0 || json.Unmarshal([]byte(out), &got) != nil {
		t.Fatalf("exit %d: %s", code, out)
	}
	// Full screen of cherries: 5 lines x 8 x 20 CZK, doubled (MS-15); stars on every reel (MS-11).
	if got.Total != 1600 || len(got.Wins) != 5 || !got.FullScreenDoubled || !got.Triggers.FreeSpins || got.Wins[0].Kind != "line" || got.Wins[0].Symbol != "CHERRY" {
		t.Fatalf("%+v", got)
	}
	code, out, _ = runCmd(t, `{"game":"magicstars","stake":5,"screen":[["LEMON","STAR","PLUM"],["GRAPE","STAR","PLUM"],["LEMON","STAR","MELON"]]}`, "eval")
	if code != 0 || !strings.Contains(out, `"symbol":"STAR","count":3,"ways":0,"line":1,"amount":500`) || strings.Count(out, "\n") != 1 {
		t.Fatalf("exit %d: %s", code, out)
	}
	// Wish Upon a Star: the same screen pays twice as much in free spins.
	ws := `{"game":"wishstar","stake":100,"screen":[["A","K","Q"],["A","J","10"],["A","BELL","CANE"],["K","Q","J"],["10","J","Q"]],"freeSpin":%s}`
	_, base, _ := runCmd(t, strings.Replace(ws, "%s", "false", 1), "eval")
	_, free, _ := runCmd(t, strings.Replace(ws, "%s", "true", 1), "eval")
	var b, f evalOut
	if json.Unmarshal([]byte(base), &b) != nil || json.Unmarshal([]byte(free), &f) != nil || b.Total == 0 || f.Total != 2*b.Total || b.Wins[0].Kind != "ways" {
		t.Fatalf("base %s free %s", base, free)
	}
	// Six Stars start Lock & Spin; in a free spin its star cash is doubled (WS-6 decision).
	ls := `{"game":"wishstar","stake":100,"screen":[["STAR","STAR","Q"],["K","STAR","Q"],["STAR","A","BELL"],["CANE","STAR","Q"],["CANE","STAR","TREE"]],"freeSpin":%s}`
	for fs, want := range map[string]int{"false": 1, "true": 2} {
		_, out, _ := runCmd(t, strings.Replace(ls, "%s", fs, 1), "eval")
		var e evalOut
		if json.Unmarshal([]byte(out), &e) != nil || !e.Triggers.LockAndSpin || e.Triggers.StarCashMultiplier != want {
			t.Fatalf("freeSpin %s: %s", fs, out)
		}
	}
}

func TestEvalBad(t *testing.T) {
	for name, in := range map[string]string{
		"not json":       `{"game":`,
		"unknown game":   `{"game":"poker","stake":5,"screen":[]}`,
		"unknown symbol": `{"game":"magicstars","stake":5,"screen":[["KIWI","STAR","PLUM"],["GRAPE","STAR","PLUM"],["LEMON","STAR","MELON"]]}`,
		"ws symbol":      `{"game":"wishstar","stake":25,"screen":[["A","K","Q"],["A","J","10"],["A","BELL","CANE"],["K","Q","J"],["10","J","CHERRY"]]}`,
		"two reels":      `{"game":"magicstars","stake":5,"screen":[["LEMON","STAR","PLUM"],["GRAPE","STAR","PLUM"]]}`,
		"four rows":      `{"game":"magicstars","stake":5,"screen":[["LEMON","STAR","PLUM","PLUM"],["GRAPE","STAR","PLUM"],["LEMON","STAR","MELON"]]}`,
		"ws shape":       `{"game":"wishstar","stake":25,"screen":[["A","K","Q"]]}`,
		"stake":          `{"game":"magicstars","stake":7,"screen":[["LEMON","STAR","PLUM"],["GRAPE","STAR","PLUM"],["LEMON","STAR","MELON"]]}`,
		"ws stake":       `{"game":"wishstar","stake":30,"screen":[["A","K","Q"],["A","J","10"],["A","BELL","CANE"],["K","Q","J"],["10","J","Q"]]}`,
		"two objects":    `{"game":"magicstars","stake":5,"screen":[["LEMON","STAR","PLUM"],["GRAPE","STAR","PLUM"],["LEMON","STAR","MELON"]]} {}`,
		"missing screen": `{"game":"magicstars","stake":5}`,
		"extra field":    `{"game":"magicstars","stake":5,"screen":[["LEMON","STAR","PLUM"],["GRAPE","STAR","PLUM"],["LEMON","STAR","MELON"]],"bet":5}`,
	} {
		code, out, errs := runCmd(t, in, "eval")
		if code != 2 || out != "" || strings.Count(errs, "\n") != 1 || !strings.HasPrefix(errs, "polaris-math eval: ") {
			t.Errorf("%s: exit %d, stdout %q, stderr %q", name, code, out, errs)
		}
	}
}

func TestUsageErrors(t *testing.T) {
	for _, args := range [][]string{{}, {"dance"}, {"par", "poker"}, {"par"}, {"simulate"}, {"simulate", "magicstars", "-stake", "7", "-n", "10"}, {"par", "magicstars", "--yaml"}} {
		if code, _, _ := runCmd(t, "", args...); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
}

// TestBinary builds polaris-math and runs it as a lab would: par --json has
// the required top-level keys, simulate agrees with theory, eval refuses
// bad input with status 2.
func TestBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := filepath.Join(t.TempDir(), "polaris-math")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	for game, stakes := range map[string][]string{"magicstars": {"5", "1000"}, "wishstar": {"25", "2500"}} {
		out, err := exec.Command(bin, "par", game, "--json").Output()
		if err != nil {
			t.Fatal(err)
		}
		var sheet map[string]any
		if err := json.Unmarshal(out, &sheet); err != nil {
			t.Fatal(err)
		}
		for _, k := range []string{"modelId", "rtp", "rtpByStake", "hitFrequency", "sigma", "maxWin", "components", "law", "draws", "disclosures"} {
			if _, ok := sheet[k]; !ok {
				t.Errorf("%s par --json lacks %q", game, k)
			}
		}
		by, _ := sheet["rtpByStake"].(map[string]any)
		for _, st := range stakes {
			if r, _ := by[st].(float64); r < 0.9 || r > 0.96 {
				t.Errorf("%s rtpByStake[%s] = %v", game, st, by[st])
			}
		}
		if rtp, _ := sheet["rtp"].(float64); rtp < 0.9 || rtp > 0.96 {
			t.Errorf("%s rtp %v is not a fraction in 0.90..0.96", game, sheet["rtp"])
		}
		txt, err := exec.Command(bin, "par", game).Output()
		if err != nil || !strings.Contains(string(txt), "PAR SHEET") {
			t.Fatalf("%s par: %v", game, err)
		}
	}
	dir := t.TempDir()
	var files []string
	for _, seed := range []string{"3", "4"} {
		f := filepath.Join(dir, "run"+seed+".json")
		files = append(files, f)
		cmd := exec.Command(bin, "simulate", "magicstars", "-n", "250000", "-seed", seed, "-out", f)
		out, err := cmd.Output()
		if err != nil || !strings.Contains(string(out), "PASS") || strings.Contains(string(out), "\r") {
			t.Fatalf("simulate: %v\n%s", err, out)
		}
	}
	// pool adds the two runs up; the same file twice repeats a seed (exit 2).
	out, err := exec.Command(bin, append([]string{"pool"}, files...)...).Output()
	if err != nil || !strings.Contains(string(out), "rounds 500000  pooled from 2 runs, seeds [3 4]") || !strings.Contains(string(out), "PASS") {
		t.Fatalf("pool: %v\n%s", err, out)
	}
	if err := exec.Command(bin, "pool", files[0], files[0]).Run(); err == nil || err.(*exec.ExitError).ExitCode() != 2 {
		t.Fatalf("pool of one run twice: %v", err)
	}
	// A pooled file pools again like a run: with a third run it is 750 000 rounds.
	pooled, third := filepath.Join(dir, "pooled.json"), filepath.Join(dir, "run5.json")
	if err := exec.Command(bin, append([]string{"pool", "-out", pooled}, files...)...).Run(); err != nil {
		t.Fatalf("pool -out: %v", err)
	}
	if err := exec.Command(bin, "simulate", "magicstars", "-n", "250000", "-seed", "5", "-out", third).Run(); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(bin, "pool", pooled, third).Output(); err != nil || !strings.Contains(string(out), "rounds 750000  pooled from 3 runs, seeds [3 4 5]") {
		t.Fatalf("pool of a pool: %v\n%s", err, out)
	}
	if err := exec.Command(bin, "pool", pooled, files[1]).Run(); err == nil {
		t.Fatal("a pool and one of its runs were pooled")
	}
	// Without -seed a seed is drawn and printed. 1 000 rounds may fall
	// outside the interval by chance (exit 1); only usage errors are 2.
	cmd := exec.Command(bin, "simulate", "magicstars", "-n", "1000")
	out, err = cmd.Output()
	if ee, ok := err.(*exec.ExitError); (err != nil && (!ok || ee.ExitCode() != 1)) || !strings.Contains(string(out), "seed ") || strings.Contains(string(out), "seed 0 ") {
		t.Fatalf("simulate with a drawn seed: %v\n%s", err, out)
	}
	cmd = exec.Command(bin, "eval")
	cmd.Stdin = strings.NewReader("nonsense")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err = cmd.Run()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 || stderr.Len() == 0 {
		t.Fatalf("eval nonsense: %v %q", err, stderr.String())
	}
	_ = os.Remove(bin)
}
