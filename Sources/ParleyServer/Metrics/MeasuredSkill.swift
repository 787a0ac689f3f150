/// A channel's skill, with each answer timed (``ServerMetrics/skillTurnDuration``): `buildApplication` puts every
/// channel's skill behind one, so that neither the hub nor the skills know about metrics.
struct MeasuredSkill: Skill {
    let base: any Skill
    let metrics: ServerMetrics

    func respond(to input: SkillInput, in context: SkillContext) async throws -> SkillResponse {
        let start = ContinuousClock.now
        defer { metrics.skillTurn(channel: context.channelId, took: ContinuousClock.now - start) }
        return try await base.respond(to: input, in: context)
    }
}
