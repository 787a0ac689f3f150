# A Faye (Debian ruby-faye) Bayeux server for ParleyGenesysTests, run with `thin -R faye.ru`.
# /cometd is the Bayeux endpoint; /publish (POST JSON) publishes a GMS-shaped event on /_genesys;
# /forget destroys every client that subscribed, so their next request is answered "401::Unknown client".
require 'faye'
require 'json'

subscribers = []
bayeux = nil
control = lambda do |env|
  request = Rack::Request.new(env)
  case request.path
  when '/health'
    [200, { 'Content-Type' => 'text/plain' }, ['ok']]
  when '/publish'
    bayeux.get_client.publish('/_genesys', JSON.parse(request.body.read))
    [200, { 'Content-Type' => 'text/plain' }, ['published']]
  when '/forget'
    engine = bayeux.instance_variable_get(:@server).engine
    subscribers.uniq.each { |id| engine.destroy_client(id) }
    forgotten = subscribers.uniq.size
    subscribers.clear
    [200, { 'Content-Type' => 'text/plain' }, ["forgot #{forgotten}"]]
  else
    [404, { 'Content-Type' => 'text/plain' }, ['not found']]
  end
end
# Faye forgets a client that has not polled for twice its timeout since its last poll arrived. With 2 s, a client
# was forgotten in full-suite runs while thin (Ruby, starved of CPU) took up to 7 s to answer a poll, and the message
# published to it was lost; 10 s leaves 20 s. A message ends the long poll at once, so the tests wait no longer.
bayeux = Faye::RackAdapter.new(control, mount: '/cometd', timeout: 10)
bayeux.on(:subscribe) { |client_id, channel| subscribers << client_id if channel == '/_genesys' }
run bayeux
