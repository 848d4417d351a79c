import Foundation

/// A ZIP archive of files stored as they are (no compression), as IMS content packages are read
/// by every LMS: local headers, the data, a central directory (PKWARE's APPNOTE, version 2.0).
/// Times are 1980-01-01 00:00, so the same files give the same bytes.
enum StoredZip {
    static func archive(_ files: [(name: String, data: Data)]) -> Data {
        var archive = Data()
        var directory = Data()
        for (name, data) in files {
            let nameBytes = Data(name.utf8)
            let crc = crc32(data)
            let offset = UInt32(archive.count)
            // Local file header.
            archive.append(le32(0x0403_4B50))
            archive.append(header(crc: crc, size: UInt32(data.count), nameLength: UInt16(nameBytes.count)))
            archive.append(nameBytes)
            archive.append(data)
            // Its central directory entry.
            directory.append(le32(0x0201_4B50))
            directory.append(le16(20))
            directory.append(header(crc: crc, size: UInt32(data.count), nameLength: UInt16(nameBytes.count)))
            directory.append(le16(0) + le16(0) + le16(0) + le32(0) + le32(offset))
            directory.append(nameBytes)
        }
        let directoryOffset = UInt32(archive.count)
        archive.append(directory)
        archive.append(le32(0x0605_4B50) + le16(0) + le16(0) + le16(UInt16(files.count)) + le16(UInt16(files.count)))
        archive.append(le32(UInt32(directory.count)) + le32(directoryOffset) + le16(0))
        return archive
    }

    /// Version needed, flags (bit 11: the name is UTF-8), method 0 (stored), time, date, CRC,
    /// sizes, name length, extra length.
    private static func header(crc: UInt32, size: UInt32, nameLength: UInt16) -> Data {
        le16(20) + le16(0x0800) + le16(0) + le16(0) + le16(0x0021) + le32(crc) + le32(size) + le32(size) + le16(nameLength) + le16(0)
    }

    private static func le16(_ value: UInt16) -> Data { withUnsafeBytes(of: value.littleEndian) { Data($0) } }
    private static func le32(_ value: UInt32) -> Data { withUnsafeBytes(of: value.littleEndian) { Data($0) } }

    private static let table: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }

    /// The CRC-32 ZIP uses (IEEE 802.3, reflected).
    static func crc32(_ data: Data) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in data { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return crc ^ 0xFFFF_FFFF
    }
}
