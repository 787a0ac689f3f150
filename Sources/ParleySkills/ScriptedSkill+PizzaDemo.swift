extension ScriptedSkill {
    /// The bundled demo: the pizza order of the Oracle Digital Assistant SDK examples, defined in the file
    /// format (``pizzaDemoSource``).
    ///
    /// A greeting that uses the profile's name, a text with postback actions, a horizontal carousel of pizzas
    /// with order postbacks, crust and size questions (buttons or typed words), a location request, a
    /// confirmation with a call action, and `bye` or `closeSession` to end.
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
                    "say": [{"type": "text", "text": "Hi {{profile.name | there}}! Welcome to Parley Pizza."}],
                    "next": "askAction"
                },
                "askAction": {
                    "say": [
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
                    "on": [
                        {"postback": {"action": "cancelOrder"}, "goto": "cancelOrder"},
                        {"regex": "\\bcancel", "goto": "cancelOrder"}
                    ],
                    "otherwise": {
                        "say": [{"type": "text", "text": "Sorry, I didn't get that."}],
                        "goto": "askAction"
                    }
                },
                "cancelOrder": {
                    "say": [{"type": "text", "text": "I couldn't find a previous order to cancel."}],
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
                    "say": [
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
                    "on": [
                        {
                            "postback": {"state": "askCrust"},
                            "set": {"pizzaCrust": "{{postback.pizzaCrust}}"},
                            "goto": "askSize"
                        },
                        {"keyword": ["thin", "thick"], "set": {"pizzaCrust": "{{match.0}}"}, "goto": "askSize"}
                    ],
                    "otherwise": {
                        "say": [{"type": "text", "text": "Sorry, we only have thin and thick crusts."}],
                        "goto": "askCrust"
                    }
                },
                "askSize": {
                    "say": [
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
                        }
                    ],
                    "otherwise": {
                        "say": [{"type": "text", "text": "Sorry, our pizzas come in small, medium and large."}],
                        "goto": "askSize"
                    }
                },
                "askLocation": {
                    "say": [
                        {
                            "type": "text",
                            "text": "Where should we deliver your {{pizzaSize}} {{pizzaType}} pizza?",
                            "actions": [{"type": "location", "label": "Share Location"}]
                        }
                    ],
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
                    "keyword": ["bye", "goodbye"],
                    "say": [{"type": "text", "text": "Goodbye, {{profile.name | friend}}! Thanks for visiting Parley Pizza."}],
                    "end": true
                },
                {"keyword": ["menu", "order"], "goto": "menu"}
            ]
        }
        """#
}
