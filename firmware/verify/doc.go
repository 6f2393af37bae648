// Package verify is the cabinet's software verification at start-up
// (standards.md §1.12, checks 8 and 9).
//
// At build time a manifest lists the SHA-256 digest of every component that
// decides play or money — the binaries, the math models, the board and
// market profiles — and is signed with Ed25519. At every start, before any
// device or network traffic, Check verifies the signature, then re-hashes
// every component; any difference (one byte of a binary, a model or a
// profile; a file missing; a manifest edited) is a *Error whose message
// says play and money are refused, naming each component.
//
// Seeded answers a regulator's on-demand request: HMAC-SHA256 keyed with the
// host's seed over each component, and over all of them in manifest order.
//
// Manifest format (text, one record a line, the signature line last and over
// every byte before it):
//
//	polaris-manifest 1
//	version 0.1.0+abc123
//	root ../../..
//	binary 3f1c…  usr/bin/polaris
//	model 9a0e…  usr/share/polaris/models/wishstar.json
//	profile 77d2…  etc/polaris/board/rpi-cabinet.toml
//	signature <base64 Ed25519 signature>
//
// root is resolved against the manifest's own directory, so an installed
// tree verifies the same wherever it is unpacked (/, a scratch root, a
// build's staging directory).
package verify
