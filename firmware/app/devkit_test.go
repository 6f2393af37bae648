package app_test

import (
	"context"
	"strings"
	"testing"

	"github.com/polaris-vlt/polaris/firmware/app"
	"github.com/polaris-vlt/polaris/firmware/devkit"
)

// devApp is a cabinet with the devkit's parts, as polaris-devkit runs it.
type devApp struct {
	*app.App
	kit *devkit.Kit
}

// start is app.Start with the devkit's parts (devkit.With).
func start(ctx context.Context, o app.Options) (*devApp, error) {
	o, kit := devkit.With(o)
	a, err := app.Start(ctx, o)
	if err != nil {
		return nil, err
	}
	return &devApp{a, kit}, nil
}

// The cabinet binary's app embeds no central system: without an address
// it refuses to start, saying where one is.
func TestNoCentralSystemRefuses(t *testing.T) {
	_, err := app.Start(context.Background(), app.Options{DataDir: t.TempDir(), Market: "demo"})
	if err == nil || !strings.Contains(err.Error(), "no central system") || !strings.Contains(err.Error(), "polaris-devkit") {
		t.Fatalf("Start without a central system: %v", err)
	}
}
