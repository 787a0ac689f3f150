import Foundation
import HTTPTypes
import Testing

@testable import ParleyServer

/// The pieces of attachment security that need no server: sniffing, names, header parameters, the upload limiter.
@Suite("Attachment sniffing, names and limits")
struct MediaSnifferTests {
    static func bytes(_ prefix: [UInt8], _ text: String = "") -> [UInt8] { prefix + Array(text.utf8) }

    @Test(arguments: [
        (bytes([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]), "image/png"),
        (bytes([0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10]), "image/jpeg"),
        (bytes([], "GIF89a\u{1}\u{0}"), "image/gif"),
        (bytes([], "RIFF\u{0}\u{0}\u{0}\u{0}WEBPVP8 "), "image/webp"),
        (bytes([], "RIFF\u{0}\u{0}\u{0}\u{0}WAVEfmt "), "audio/wav"),
        (bytes([0, 0, 0, 0x18], "ftypheic\u{0}\u{0}\u{0}\u{0}"), "image/heic"),
        (bytes([0, 0, 0, 0x18], "ftypisom\u{0}\u{0}\u{2}\u{0}"), "video/mp4"),
        (bytes([0, 0, 0, 0x14], "ftypqt  \u{0}\u{0}\u{0}\u{0}"), "video/quicktime"),
        (bytes([0, 0, 0, 0x18], "ftypM4A \u{0}\u{0}\u{0}\u{0}"), "audio/mp4"),
        (bytes([0x1A, 0x45, 0xDF, 0xA3, 0x9F, 0x42, 0x82, 0x84], "webm"), "video/webm"),
        (bytes([0x1A, 0x45, 0xDF, 0xA3, 0x9F, 0x42, 0x82, 0x88], "matroska"), "video/x-matroska"),
        (bytes([], "ID3\u{4}\u{0}"), "audio/mpeg"),
        (bytes([0xFF, 0xFB, 0x90, 0x64]), "audio/mpeg"),
        (bytes([0xFF, 0xF1, 0x50, 0x80]), "audio/aac"),
        (bytes([], "OggS\u{0}\u{2}"), "audio/ogg"),
        (bytes([], "fLaC\u{0}"), "audio/flac"),
        (bytes([], "%PDF-1.7\n"), "application/pdf"),
        (bytes([0x50, 0x4B, 0x03, 0x04, 0x14, 0]), "application/zip"),
        (bytes([0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1]), "application/x-ole-storage"),
        (bytes([], "{\\rtf1\\ansi"), "application/rtf"),
        (bytes([], "Hello, world.\nLine two\twith a tab.\n"), "text/plain"),
        (bytes([0xEF, 0xBB, 0xBF], "naïve café, ünïcödé ✓"), "text/plain"),
        (bytes([], "{\"a\": 1}"), "text/plain"),
        (bytes([], "<!DOCTYPE html><html>"), "text/html"),
        (bytes([], "  \n\t<HTML><BODY>"), "text/html"),
        (bytes([0xEF, 0xBB, 0xBF], "\r\n<script>alert(1)</script>"), "text/html"),
        (bytes([], "<p>hello"), "text/html"),
        (bytes([], "<svg xmlns=\"http://www.w3.org/2000/svg\">"), "image/svg+xml"),
        (bytes([], "<?xml version=\"1.0\"?>\n<!DOCTYPE svg><svg>"), "image/svg+xml"),
        (bytes([], "<?xml version=\"1.0\"?><html xmlns=\"http://www.w3.org/1999/xhtml\">"), "text/html"),
        (bytes([], "<?xml version=\"1.0\"?><note/>"), "application/xml"),
        (bytes([0xFF, 0xFE, 0x3C, 0x00, 0x68, 0x00]), "text/html"),
        (bytes([], "text with a NUL\u{0} inside"), "application/octet-stream"),
        (bytes([0x4D, 0x5A, 0x90, 0x00, 0x03]), "application/octet-stream"),
        (bytes([0xC3, 0x28, 0x41]), "application/octet-stream"),
        (bytes([]), "application/octet-stream"),
    ])
    func sniffsTheTypeFromTheBytes(head: [UInt8], type: String) {
        #expect(MediaSniffer.sniff(head, complete: true) == type)
    }

    @Test func aCharacterCutByTheEndOfTheHeadIsStillText() {
        let text = Array(String(repeating: "é", count: 3000).utf8)  // 6,000 bytes
        #expect(MediaSniffer.sniff(text.prefix(MediaSniffer.headLength - 1), complete: false) == "text/plain")
        #expect(
            MediaSniffer.sniff(text.prefix(MediaSniffer.headLength - 1), complete: true) == "application/octet-stream")
    }

    @Test func theDeclaredTypeOnlyRefinesWithinTheSniffedFamily() {
        let docx = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
        #expect(MediaSniffer.refine("text/plain", declared: "text/csv", fileName: "a.txt") == "text/csv")
        #expect(MediaSniffer.refine("text/plain", declared: nil, fileName: "prices.CSV") == "text/csv")
        #expect(MediaSniffer.refine("text/plain", declared: "text/html", fileName: "a.html") == "text/plain")
        #expect(MediaSniffer.refine("text/plain", declared: "text/javascript", fileName: "a.js") == "text/plain")
        #expect(
            MediaSniffer.refine("application/zip", declared: "application/octet-stream", fileName: "a.docx") == docx)
        #expect(MediaSniffer.refine("application/zip", declared: "text/html", fileName: "a.zip") == "application/zip")
        #expect(
            MediaSniffer.refine("application/x-ole-storage", declared: "application/msword", fileName: "a")
                == "application/msword")
        #expect(MediaSniffer.refine("video/mp4", declared: "audio/x-m4a", fileName: "voice.m4a") == "audio/mp4")
        #expect(MediaSniffer.refine("image/png", declared: "image/svg+xml", fileName: "a.svg") == "image/png")
    }

    @Test func channelsAcceptMarkupOnlyByName() {
        var channel = ChannelConfiguration(id: "c")
        #expect(AttachmentRoutes.accepts("audio/ogg", on: channel))
        #expect(AttachmentRoutes.accepts("image/png", on: channel))
        #expect(!AttachmentRoutes.accepts("text/html", on: channel))
        #expect(!AttachmentRoutes.accepts("image/svg+xml", on: channel))
        #expect(!AttachmentRoutes.accepts("application/octet-stream", on: channel))
        channel.attachmentTypes = ["text/*", "*/*"]
        #expect(AttachmentRoutes.accepts("text/csv", on: channel))
        #expect(!AttachmentRoutes.accepts("text/html", on: channel))
        channel.attachmentTypes = ["text/html"]
        #expect(AttachmentRoutes.accepts("text/html", on: channel))
    }

    @Test func onlyPicturesSoundAndVideoAreInline() {
        for type in ["image/png", "image/jpeg", "image/gif", "image/webp", "audio/mpeg", "video/mp4"] {
            #expect(AttachmentRoutes.isInline(type), "\(type)")
        }
        for type in ["text/plain", "text/html", "image/svg+xml", "application/pdf", "image/heic", "application/json"] {
            #expect(!AttachmentRoutes.isInline(type), "\(type)")
        }
    }

    // MARK: Names

    @Test func safeNamesFitTheFileSystemAndHideNothing() {
        #expect(AttachmentName.safe("../../etc/passwd") == "passwd")
        #expect(AttachmentName.safe("C:\\Users\\me\\menu.pdf") == "menu.pdf")
        #expect(AttachmentName.safe(".metadata.json") == "metadata.json")
        #expect(AttachmentName.safe("..") == "attachment")
        #expect(AttachmentName.safe("a\u{0}b\r\nc.txt") == "abc.txt")
        #expect(AttachmentName.safe("invoice\u{202E}fdp.exe") == "invoicefdp.exe", "no right-to-left override")
        let emoji = AttachmentName.safe(String(repeating: "😀", count: 100) + ".png")
        #expect(emoji.utf8.count <= 255)
        #expect(emoji.hasSuffix("😀.png"))
        let ascii = AttachmentName.safe(String(repeating: "a", count: 300) + ".jpeg")
        #expect(ascii.utf8.count == 255)
        #expect(ascii.hasSuffix("a.jpeg"))
    }

    @Test func givenNamesAreReadFromEitherParameter() {
        #expect(
            AttachmentName.given(inDisposition: #"form-data; name="attachment"; filename="a; b.txt""#) == "a; b.txt")
        #expect(
            AttachmentName.given(inDisposition: #"form-data; name="attachment"; filename="caf%C3%A9.png""#)
                == "café.png")
        #expect(
            AttachmentName.given(
                inDisposition: #"form-data; name="attachment"; filename="x"; filename*=UTF-8''na%C3%AFve.txt"#)
                == "naïve.txt")
        #expect(
            AttachmentName.given(inDisposition: #"form-data; name="attachment"; filename="say \"hi\".txt""#)
                == #"say "hi".txt"#)
        #expect(AttachmentName.given(inDisposition: #"form-data; name="attachment""#) == nil)
        #expect(HeaderParameters(#"form-data; NAME="attachment""#)["name"] == "attachment")
        #expect(HeaderParameters("multipart/form-data; boundary=----abc; charset=utf-8")["boundary"] == "----abc")
    }

    @Test func dispositionsAreEncodedPerRFC5987() {
        #expect(
            AttachmentName.contentDisposition(inline: true, name: "a b.png") == "inline; filename*=UTF-8''a%20b.png")
        #expect(
            AttachmentName.contentDisposition(inline: false, name: "naïve \"x\";.txt")
                == "attachment; filename*=UTF-8''na%C3%AFve%20%22x%22%3B.txt")
    }

    // MARK: Limits

    @Test func theUploadLimiterCountsRunningUploadsAndStartsPerMinute() async throws {
        let clock = VirtualClock()
        let limiter = UploadLimiter(
            maxConcurrent: 3, maxConcurrentPerUser: 2, perWindow: 3, clock: ServerClock(clock: clock, startingAt: .now))
        let first = try limiter.admit(channelId: "c", userId: "a")
        let second = try limiter.admit(channelId: "c", userId: "a")
        let perUser = #expect(throws: CodedHTTPError.self) { try limiter.admit(channelId: "c", userId: "a") }
        #expect(perUser?.status == .tooManyRequests)
        #expect(perUser?.error.code == .rateLimited)
        _ = try limiter.admit(channelId: "other", userId: "a")  // another channel, another user
        let busy = #expect(throws: CodedHTTPError.self) { try limiter.admit(channelId: "c", userId: "b") }
        #expect(busy?.status == .serviceUnavailable)
        #expect(busy?.error.code == .serverBusy)
        #expect(busy?.headers[.retryAfter] == "5")
        limiter.release(first)
        limiter.release(second)
        #expect(limiter.running == 1)

        // A third start within the minute is refused, with the seconds left until the oldest start is a minute old.
        let third = try limiter.admit(channelId: "c", userId: "a")
        limiter.release(third)
        await clock.advance(by: .seconds(20))
        let rate = #expect(throws: CodedHTTPError.self) { try limiter.admit(channelId: "c", userId: "a") }
        #expect(rate?.status == .tooManyRequests)
        #expect(rate?.headers[.retryAfter] == "40")
        await clock.advance(by: .seconds(40))
        let later = try limiter.admit(channelId: "c", userId: "a")
        limiter.release(later)
    }

    @Test func attachmentIdsAreRandomAndValidated() {
        let ids = (0..<100).map { _ in AttachmentID.random() }
        #expect(Set(ids).count == 100)
        #expect(ids.allSatisfy { $0.count == 32 && AttachmentID.isValid($0) })
        #expect(AttachmentID.isValid(UUID().uuidString.lowercased()))
        #expect(!AttachmentID.isValid("../../etc"))
        #expect(!AttachmentID.isValid(String(repeating: "A", count: 32)))
    }

    @Test func metadataRoundTripsAndDistrustsOldRecords() throws {
        let record = AttachmentMetadata(
            AttachmentRecord(
                channelId: "c", userId: "u", type: "image/png", size: 12, fileName: "a.png", protected: true))
        #expect(AttachmentMetadata(json: record.jsonValue) == record)
        let legacy = try #require(AttachmentMetadata(json: ["channelId": "c", "type": "text/html"]))
        #expect(legacy.isLegacy)
        #expect(legacy.protected == nil)
        let huge = try #require(AttachmentMetadata(json: ["channelId": "c", "version": 2, "size": 1e300]))
        #expect(huge.size == nil, "a size that is not an Int is ignored, not trapped on")
    }
}
