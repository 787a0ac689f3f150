import ParleySkills
import Testing

@Test func skillsModuleSeesTheWireModel() {
    #expect(MessagePayload.text("hi").type == .text)
}
