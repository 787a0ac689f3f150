extension ScriptedSkill {
    /// The bundled demo: the pizza order of the Oracle Digital Assistant SDK examples, defined in the file
    /// format (``pizzaDemoSource``).
    ///
    /// A greeting that uses the profile's name, a text with postback actions, a horizontal carousel of pizzas
    /// with order postbacks, crust and size questions (buttons or typed words), a location request, a
    /// confirmation with a call action, `feedback` for an edit form (an auto-submitted rating that replaces the form,
    /// then a streamed thank-you), `agent` to talk to a live agent, and `bye` or `closeSession` to end; in English
    /// and French (the profile's `languageTag`).
    public static let pizzaDemo: ScriptedSkill = {
        do {
            return try ScriptedSkill(json: Array(pizzaDemoSource.utf8))
        } catch {
            // The source is a constant that the tests load; this cannot happen in a tested build.
            preconditionFailure("the bundled pizza demo is not a valid skill: \(error)")
        }
    }()

    /// The definition of ``pizzaDemo``, as a skill file; a starting point for your own.
    public static let pizzaDemoSource = #"""
        {
            "name": "PizzaOrder",
            "description": "The pizza order of the Oracle Digital Assistant SDK examples.",
            "start": "greeting",
            "variables": {"pizzaType": null, "pizzaCrust": null, "pizzaSize": null, "deliveryLocation": null},
            "states": {
                "greeting": {
                    "say": {
                        "en": [{"type": "text", "text": "Hi {{profile.name | there}}! Welcome to Parley Pizza."}],
                        "fr": [{"type": "text", "text": "Bonjour {{profile.name | à vous}} ! Bienvenue chez Parley Pizza."}]
                    },
                    "next": "askAction"
                },
                "askAction": {
                    "say": {
                        "en": [
                            {
                                "type": "text",
                                "text": "What do you want to do?",
                                "actions": [
                                    {
                                        "type": "postback",
                                        "label": "Order Pizza",
                                        "postback": {"state": "askAction", "action": "orderPizza"}
                                    },
                                    {
                                        "type": "postback",
                                        "label": "Cancel A Previous Order",
                                        "postback": {"state": "askAction", "action": "cancelOrder"}
                                    }
                                ]
                            }
                        ],
                        "fr": [
                            {
                                "type": "text",
                                "text": "Que voulez-vous faire ?",
                                "actions": [
                                    {
                                        "type": "postback",
                                        "label": "Commander une pizza",
                                        "postback": {"state": "askAction", "action": "orderPizza"}
                                    },
                                    {
                                        "type": "postback",
                                        "label": "Annuler une commande",
                                        "postback": {"state": "askAction", "action": "cancelOrder"}
                                    }
                                ]
                            }
                        ]
                    },
                    "on": [
                        {"postback": {"action": "cancelOrder"}, "goto": "cancelOrder"},
                        {"regex": "\\b(cancel|annuler)", "goto": "cancelOrder"}
                    ],
                    "otherwise": {
                        "say": {
                            "en": [{"type": "text", "text": "Sorry, I didn't get that."}],
                            "fr": [{"type": "text", "text": "Désolé, je n'ai pas compris."}]
                        },
                        "goto": "askAction"
                    }
                },
                "cancelOrder": {
                    "say": {
                        "en": [{"type": "text", "text": "I couldn't find a previous order to cancel."}],
                        "fr": [{"type": "text", "text": "Je n'ai trouvé aucune commande à annuler."}]
                    },
                    "next": "askAction"
                },
                "menu": {
                    "say": [
                        {
                            "type": "card",
                            "layout": "horizontal",
                            "cards": [
                                {
                                    "title": "Hawaiian Pizza",
                                    "description": "Ham and pineapple on thin crust",
                                    "actions": [
                                        {
                                            "type": "postback",
                                            "label": "Order Small",
                                            "postback": {
                                                "state": "GetOrder",
                                                "variables": {
                                                    "pizzaType": "hawaiian", "pizzaCrust": "thin", "pizzaSize": "small"
                                                }
                                            }
                                        },
                                        {
                                            "type": "postback",
                                            "label": "Order Large",
                                            "postback": {
                                                "state": "GetOrder",
                                                "variables": {
                                                    "pizzaType": "hawaiian", "pizzaCrust": "thin", "pizzaSize": "large"
                                                }
                                            }
                                        }
                                    ]
                                },
                                {
                                    "title": "Cheese Pizza",
                                    "description": "Cheese pizza (i.e. pizza with NO toppings) on thick crust",
                                    "actions": [
                                        {
                                            "type": "postback",
                                            "label": "Order Small",
                                            "postback": {
                                                "state": "GetOrder",
                                                "variables": {
                                                    "pizzaType": "cheese", "pizzaCrust": "thick", "pizzaSize": "small"
                                                }
                                            }
                                        },
                                        {
                                            "type": "postback",
                                            "label": "Order Large",
                                            "postback": {
                                                "state": "GetOrder",
                                                "variables": {
                                                    "pizzaType": "cheese", "pizzaCrust": "thick", "pizzaSize": "large"
                                                }
                                            }
                                        }
                                    ]
                                },
                                {
                                    "title": "Margherita Pizza",
                                    "description": "Tomato, mozzarella and basil; you choose crust and size",
                                    "actions": [
                                        {
                                            "type": "postback",
                                            "label": "Choose Crust and Size",
                                            "postback": {
                                "state": "ChooseCrust",
                                "variables": {"pizzaType": "margherita"}
                            }
                                        }
                                    ]
                                }
                            ],
                            "globalActions": [{"type": "call", "label": "Call for Help", "phoneNumber": "123456789"}]
                        }
                    ],
                    "on": [
                        {
                            "keyword": ["hawaiian", "cheese", "margherita"],
                            "set": {"pizzaType": "{{match.0}}", "pizzaCrust": null, "pizzaSize": null},
                            "goto": "askCrust"
                        }
                    ],
                    "otherwise": {
                        "say": [{"type": "text", "text": "Please choose a pizza from the menu, or type its name."}]
                    }
                },
                "askCrust": {
                    "say": {
                        "en": [
                            {
                                "type": "text",
                                "text": "Which crust would you like for your {{pizzaType}} pizza?",
                                "actions": [
                                    {
                                        "type": "postback",
                                        "label": "Thin",
                                        "postback": {"state": "askCrust", "pizzaCrust": "thin"}
                                    },
                                    {
                                        "type": "postback",
                                        "label": "Thick",
                                        "postback": {"state": "askCrust", "pizzaCrust": "thick"}
                                    }
                                ]
                            }
                        ],
                        "fr": [
                            {
                                "type": "text",
                                "text": "Quelle pâte voulez-vous pour votre pizza {{pizzaType}} ?",
                                "actions": [
                                    {
                                        "type": "postback",
                                        "label": "Fine",
                                        "postback": {"state": "askCrust", "pizzaCrust": "thin"}
                                    },
                                    {
                                        "type": "postback",
                                        "label": "Épaisse",
                                        "postback": {"state": "askCrust", "pizzaCrust": "thick"}
                                    }
                                ]
                            }
                        ]
                    },
                    "on": [
                        {
                            "postback": {"state": "askCrust"},
                            "set": {"pizzaCrust": "{{postback.pizzaCrust}}"},
                            "goto": "askSize"
                        },
                        {"keyword": ["thin", "thick"], "set": {"pizzaCrust": "{{match.0}}"}, "goto": "askSize"},
                        {"keyword": ["fine"], "set": {"pizzaCrust": "thin"}, "goto": "askSize"},
                        {"keyword": ["épaisse"], "set": {"pizzaCrust": "thick"}, "goto": "askSize"}
                    ],
                    "otherwise": {
                        "say": [{"type": "text", "text": "Sorry, we only have thin and thick crusts."}],
                        "goto": "askCrust"
                    }
                },
                "askSize": {
                    "say": {
                        "en": [
                            {
                                "type": "text",
                                "text": "What size should your {{pizzaType}} pizza be?",
                                "actions": [
                                    {
                                        "type": "postback",
                                        "label": "Small",
                                        "postback": {"state": "askSize", "pizzaSize": "small"}
                                    },
                                    {
                                        "type": "postback",
                                        "label": "Medium",
                                        "postback": {"state": "askSize", "pizzaSize": "medium"}
                                    },
                                    {
                                        "type": "postback",
                                        "label": "Large",
                                        "postback": {"state": "askSize", "pizzaSize": "large"}
                                    }
                                ]
                            }
                        ],
                        "fr": [
                            {
                                "type": "text",
                                "text": "Quelle taille pour votre pizza {{pizzaType}} ?",
                                "actions": [
                                    {
                                        "type": "postback",
                                        "label": "Petite",
                                        "postback": {"state": "askSize", "pizzaSize": "small"}
                                    },
                                    {
                                        "type": "postback",
                                        "label": "Moyenne",
                                        "postback": {"state": "askSize", "pizzaSize": "medium"}
                                    },
                                    {
                                        "type": "postback",
                                        "label": "Grande",
                                        "postback": {"state": "askSize", "pizzaSize": "large"}
                                    }
                                ]
                            }
                        ]
                    },
                    "on": [
                        {
                            "postback": {"state": "askSize"},
                            "set": {"pizzaSize": "{{postback.pizzaSize}}"},
                            "goto": "askLocation"
                        },
                        {
                            "keyword": ["small", "medium", "large"],
                            "set": {"pizzaSize": "{{match.0}}"},
                            "goto": "askLocation"
                        },
                        {"keyword": ["petite"], "set": {"pizzaSize": "small"}, "goto": "askLocation"},
                        {"keyword": ["moyenne"], "set": {"pizzaSize": "medium"}, "goto": "askLocation"},
                        {"keyword": ["grande"], "set": {"pizzaSize": "large"}, "goto": "askLocation"}
                    ],
                    "otherwise": {
                        "say": [{"type": "text", "text": "Sorry, our pizzas come in small, medium and large."}],
                        "goto": "askSize"
                    }
                },
                "askLocation": {
                    "say": {
                        "en": [
                            {
                                "type": "text",
                                "text": "Where should we deliver your {{pizzaSize}} {{pizzaType}} pizza?",
                                "actions": [{"type": "location", "label": "Share Location"}]
                            }
                        ],
                        "fr": [
                            {
                                "type": "text",
                                "text": "Où devons-nous livrer votre pizza {{pizzaType}} ?",
                                "actions": [{"type": "location", "label": "Partager ma position"}]
                            }
                        ]
                    },
                    "on": [{"type": "location", "set": {"deliveryLocation": "{{location}}"}, "goto": "confirm"}],
                    "otherwise": {
                        "say": [
                            {"type": "text", "text": "Please share your location, so that we know where to deliver."}
                        ],
                        "goto": "askLocation"
                    }
                },
                "confirm": {
                    "say": [
                        {
                            "type": "text",
                            "text": "Thank you! Your {{pizzaSize}} {{pizzaType}} pizza on {{pizzaCrust}} crust is on its way to {{deliveryLocation.title | you}}.",
                            "footerText": "Delivery location: {{deliveryLocation.latitude}}, {{deliveryLocation.longitude}}",
                            "actions": [
                                {"type": "call", "label": "Call for Help", "phoneNumber": "123456789"},
                                {
                                    "type": "postback",
                                    "label": "Order Another Pizza",
                                    "postback": {"state": "confirm", "action": "orderPizza"}
                                }
                            ]
                        }
                    ],
                    "otherwise": {
                        "say": [
                            {
                                "type": "text",
                                "text": "Your pizza is on its way. Type \"menu\" to order another one, or \"bye\" to leave."
                            }
                        ]
                    }
                }
            },
            "on": [
                {"postback": {"action": "orderPizza"}, "goto": "menu"},
                {
                    "postback": {"state": "GetOrder"},
                    "set": {
                        "pizzaType": "{{postback.variables.pizzaType}}",
                        "pizzaCrust": "{{postback.variables.pizzaCrust}}",
                        "pizzaSize": "{{postback.variables.pizzaSize}}"
                    },
                    "goto": "askLocation"
                },
                {
                    "postback": {"state": "ChooseCrust"},
                    "set": {"pizzaType": "{{postback.variables.pizzaType}}", "pizzaCrust": null, "pizzaSize": null},
                    "goto": "askCrust"
                },
                {
                    "keyword": ["bye", "goodbye", "au revoir"],
                    "say": {
                        "en": [{"type": "text", "text": "Goodbye, {{profile.name | friend}}! Thanks for visiting Parley Pizza."}],
                        "fr": [{"type": "text", "text": "Au revoir {{profile.name | et à bientôt}} ! Merci de votre visite chez Parley Pizza."}]
                    },
                    "end": true
                },
                {"keyword": ["menu", "order", "commander"], "goto": "menu"},
                {
                    "keyword": ["feedback", "avis"],
                    "say": [
                        {
                            "type": "editForm",
                            "title": "How was your pizza?",
                            "fields": [
                                {
                                    "displayType": "singleSelect",
                                    "id": "rating",
                                    "label": "Rating",
                                    "required": true,
                                    "autoSubmit": true,
                                    "layoutStyle": "radioGroup",
                                    "options": [
                                        {"label": "Great", "value": "great"},
                                        {"label": "Good", "value": "good"},
                                        {"label": "Poor", "value": "poor"}
                                    ]
                                },
                                {
                                    "displayType": "textInput",
                                    "id": "comments",
                                    "label": "Comments",
                                    "placeholder": "Tell us more",
                                    "maxLength": 200,
                                    "clientErrorMessage": "Keep it under 200 characters."
                                }
                            ],
                            "actions": [
                                {"type": "submitForm", "label": "Send", "postback": {"action": "sendFeedback"}}
                            ]
                        }
                    ]
                },
                {
                    "payload": {"type": "formSubmission", "partialSubmitField": "rating"},
                    "say": [
                        {
                            "type": "editForm",
                            "title": "How was your pizza? You said: {{input.submittedFields.rating}}",
                            "fields": [
                                {
                                    "displayType": "textInput",
                                    "id": "comments",
                                    "label": "Comments",
                                    "placeholder": "Tell us more",
                                    "maxLength": 200
                                }
                            ],
                            "actions": [
                                {"type": "submitForm", "label": "Send", "postback": {"action": "sendFeedback"}}
                            ],
                            "channelExtensions": {"replaceMessage": "true"}
                        }
                    ]
                },
                {
                    "postback": {"action": "sendFeedback"},
                    "say": [
                        {"type": "textStream", "text": "Thank you ", "streamState": "start", "streamId": "feedback"},
                        {"type": "textStream", "text": "for your ", "streamState": "running", "streamId": "feedback"},
                        {
                            "type": "textStream",
                            "text": "feedback!",
                            "aggregateText": "Thank you for your feedback!",
                            "streamState": "end",
                            "streamId": "feedback"
                        }
                    ]
                },
                {
                    "keyword": ["agent", "human", "conseiller"],
                    "say": {
                        "en": [{"type": "text", "text": "I'm connecting you to one of our agents. Please wait."}],
                        "fr": [{"type": "text", "text": "Je vous mets en relation avec un conseiller. Un instant."}]
                    },
                    "handOff": true
                }
            ]
        }
        """#
}
