#if canImport(SwiftUI)
    import SwiftUI
    import ParleyUI

    /// Cards: a carousel (`horizontal`) or a list (`vertical`).
    struct CardsView: View {
        let cards: CardsContent
        let perform: (ActionItem) -> Void
        let open: (String) -> Void
        @ScaledMetric(relativeTo: .body) private var cardWidth = 240.0

        var body: some View {
            switch cards.layout {
            case .horizontal:
                ScrollView(.horizontal, showsIndicators: false) {
                    LazyHStack(alignment: .top, spacing: 10) {
                        ForEach(cards.cards) { card in
                            CardView(card: card, perform: perform, open: open).frame(width: cardWidth)
                        }
                    }
                }
            default:
                VStack(alignment: .leading, spacing: 10) {
                    ForEach(cards.cards) { card in CardView(card: card, perform: perform, open: open) }
                }
            }
        }
    }

    /// One card: picture, title, description, buttons; a tap opens its `url`.
    struct CardView: View {
        let card: CardItem
        let perform: (ActionItem) -> Void
        let open: (String) -> Void
        @Environment(\.chatPalette) private var palette

        var body: some View {
            VStack(alignment: .leading, spacing: 6) {
                if let image = card.imageUrl, let url = URL(string: image) {
                    AsyncImage(url: url) { image in
                        image.resizable().scaledToFill()
                    } placeholder: {
                        Color(palette.cardBackground)
                    }
                    .frame(height: 120)
                    .clipped()
                    .accessibilityHidden(true)
                }
                VStack(alignment: .leading, spacing: 4) {
                    Text(card.title).font(.headline).foregroundStyle(Color(palette.cardTitleText))
                    if let description = card.description {
                        Text(description).font(.subheadline).foregroundStyle(Color(palette.cardDescriptionText))
                    }
                }
                .accessibilityElement(children: .combine)
                .accessibilityLabel(card.accessibilityLabel)
                .onTapGesture { if let url = card.url { open(url) } }
                .accessibilityAddTraits(card.url == nil ? [] : .isLink)
                ActionButtons(items: card.actions, layout: .vertical, perform: perform)
            }
            .padding(10)
            .background(Color(palette.cardBackground), in: RoundedRectangle(cornerRadius: 12))
        }
    }

    /// Read-only forms and tables: each field as "label: value".
    struct ReadOnlyContentView: View {
        let content: MessagePayload.Content

        var body: some View {
            VStack(alignment: .leading, spacing: 4) {
                ForEach(Array(lines.enumerated()), id: \.offset) { _, line in
                    Text(line).font(.callout)
                }
            }
        }

        private var lines: [String] {
            let forms: [ReadOnlyForm]
            var lines: [String] = []
            switch content {
            case .form(let form): forms = form.forms
            case .table(let table):
                forms = []
                lines = table.rows.map { row in
                    row.fields.map { field in field.value.map(Self.plain) ?? "" }.joined(separator: "  ")
                }
            case .tableForm(let tableForm): forms = tableForm.forms
            default: forms = []
            }
            for form in forms {
                if let title = form.title { lines.append(title) }
                for field in form.fields ?? (form.formRows ?? []).flatMap({ $0.columns.flatMap(\.fields) }) {
                    lines.append("\(field.label.map { "\($0): " } ?? "")\(field.value.map(Self.plain) ?? "")")
                }
            }
            return lines
        }

        private static func plain(_ value: JSONValue) -> String {
            if case .string(let text) = value { return text }
            return value.jsonString()
        }
    }
#endif
