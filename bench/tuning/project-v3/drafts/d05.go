package updater

import (
	"hash/crc32"

	"github.com/brennhaus/kilnfw/internal/proto"
)

const ChunkSize = 4096

func frames(img []byte) []proto.Frame {
	var out []proto.Frame
	for i := 0; i*ChunkSize < len(img); i++ {
		end := min((i+1)*ChunkSize, len(img))
		p := img[i*ChunkSize : end]
		out = append(out, proto.Frame{Index: uint32(i), Payload: p, CRC: crc32.ChecksumIEEE(p)})
	}
	return out
}
