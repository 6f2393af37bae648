//go:build display && linux

package sound

/*
#cgo pkg-config: alsa
#include <alsa/asoundlib.h>

static int polaris_probe(void) {
	snd_pcm_t *h;
	int e = snd_pcm_open(&h, "default", SND_PCM_STREAM_PLAYBACK, SND_PCM_NONBLOCK);
	if (e < 0) return e;
	snd_pcm_close(h);
	return 0;
}
*/
import "C"

import "fmt"

// probe opens ALSA's default playback device and closes it again. Why:
// ebiten's audio context opens the device asynchronously and hands a
// failure to the game loop, which then ends the window; a cabinet (or a
// devkit on a machine) without a sound device must rather run silent.
func probe() error {
	if e := C.polaris_probe(); e < 0 {
		return fmt.Errorf("ALSA: default device: %s", C.GoString(C.snd_strerror(e)))
	}
	return nil
}
