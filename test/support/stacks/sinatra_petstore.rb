# Sinatra 3 (Debian's ruby-sinatra) on WEBrick, written as Sinatra's README shows: a before
# filter that halts without the key, JSON.parse of the body, and error and not_found blocks
# that give every error the Error shape. Environment: PETSTORE_KEY, PORT; PETSTORE_FAULT=1
# wraps the list in an object ({"categories": [...]}), as JSON APIs in Ruby often do, where
# 4.1 wants the array itself.
# Run: ruby sinatra_petstore.rb
require 'json'
require 'sinatra/base'

class Petstore < Sinatra::Base
  KEY = ENV.fetch('PETSTORE_KEY')
  FAULT = ENV['PETSTORE_FAULT'] == '1'
  STORE = []
  set :server, 'webrick'
  set :bind, '127.0.0.1'
  set :port, Integer(ENV.fetch('PORT'))
  set :show_exceptions, false
  set :raise_errors, false
  set :logging, false

  def error_body(status, code, message)
    content_type :json
    halt status, { code: code, message: message, status: status }.to_json
  end

  before do
    header = request.env['HTTP_AUTHORIZATION'] || ''
    scheme, token = header.split(' ', 2)
    next if scheme.to_s.casecmp?('bearer') && token == KEY
    headers 'WWW-Authenticate' => 'Bearer realm="petstore"' + (header.empty? ? '' : ', error="invalid_token"')
    error_body 401, 'unauthorized', 'a valid API key is required'
  end

  get '/v1/categories' do
    content_type :json
    (FAULT ? { categories: STORE } : STORE).to_json
  end

  post '/v1/categories' do
    body = begin
      JSON.parse(request.body.read)
    rescue JSON::ParserError => e
      error_body 400, 'invalid_json', e.message
    end
    error_body 400, 'invalid_body', 'name is required and must be a string' unless body.is_a?(Hash) && body['name'].is_a?(String)
    error_body 400, 'invalid_body', 'description must be a string' if body.key?('description') && !body['description'].is_a?(String)
    category = { id: STORE.length + 1, name: body['name'] }
    category[:description] = body['description'] if body.key?('description')
    STORE << category
    content_type :json
    status 201
    category.to_json
  end

  get(%r{/v1/pets/[^/]+}) { error_body 501, 'not_implemented', 'outside the categories interface' }
  get('/v1/store/orders') { error_body 501, 'not_implemented', 'outside the categories interface' }
  not_found { error_body 404, 'not_found', 'no such resource' }
  error { error_body 500, 'error', env['sinatra.error']&.message.to_s }

  run!
end
