<?php
/**
 * Plugin Name:       eXp Realty Ecuador Listings
 * Plugin URI:        https://github.com/exp-ecuador/widgets
 * Description:       The eXp Realty Ecuador property search, map, listings, agent directory and inquiry forms on any page: a block and a shortcode for each element, one script, your colours and your leads.
 * Version:           1.0.0
 * Requires at least: 6.2
 * Requires PHP:      7.4
 * Author:            eXp Realty Ecuador
 * License:           GPL-2.0-or-later
 * License URI:       https://www.gnu.org/licenses/gpl-2.0.html
 * Text Domain:       exp-ecuador
 *
 * What this plugin does (docs/leads.md, "WordPress" in the project's repository):
 * - a settings page (Settings > eXp Ecuador): the data URL and key, the script's address, the
 *   brand colour, the language, and the lead agent whose leads the site's elements send;
 * - a shortcode per element, [exp_property_search city="Quito"], and a block per element (server
 *   rendered, so the markup is the same); the attributes each element takes come from
 *   elements.json, written by the project's build from the elements themselves;
 * - the elements' module script enqueued once per page, only on pages that show an element.
 * Every attribute is checked against the element's list and escaped; the colour must be a hex
 * colour; the lead agent an id. Where the data comes from and whose lead a visitor's contact
 * details become (api-url, api-key, lead-agent-id) come from the settings page only: a shortcode or
 * a block may name them only when its author may change those settings (an administrator), never
 * an author or an editor, who could otherwise send visitors' details to another backend or agent.
 * In a synced pattern (a reusable block) its author is the pattern's, and the post that shows it
 * must be an administrator's too: the least trusted author on the way wins.
 */

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

define( 'EXP_ECUADOR_VERSION', '1.0.0' );
define( 'EXP_ECUADOR_OPTION', 'exp_ecuador_settings' );
/** The attributes only the settings page sets (see above). */
define( 'EXP_ECUADOR_SETTINGS_ONLY', array( 'api-url', 'api-key', 'lead-agent-id' ) );

/**
 * May the content being shown choose its own backend and lead agent? Only when its author may
 * change the settings; content with no author (a widget area, a template) may not. A synced
 * pattern is rendered inside the post that embeds it, so get_post() is that post: the patterns
 * being rendered are checked too, and each of their authors must be able to as well.
 */
function exp_ecuador_author_may_configure() {
	$post = get_post();
	return exp_ecuador_user_may_configure( $post ) && ! in_array( false, exp_ecuador_patterns(), true );
}

function exp_ecuador_user_may_configure( $post ) {
	return $post instanceof WP_Post && (int) $post->post_author > 0 && user_can( (int) $post->post_author, 'manage_options' );
}

/**
 * The synced patterns being rendered, outermost first: for each, whether its author may configure.
 * $change 1 adds one (the wp_block post $pattern), -1 removes the last.
 */
function exp_ecuador_patterns( $change = 0, $pattern = null ) {
	static $patterns = array();
	if ( 1 === $change ) {
		$patterns[] = $pattern instanceof WP_Post && 'wp_block' === $pattern->post_type && exp_ecuador_user_may_configure( $pattern );
	} elseif ( -1 === $change ) {
		array_pop( $patterns );
	}
	return $patterns;
}

/**
 * A synced pattern (core/block, a wp_block post by its ref) is rendered with its own author known:
 * its blocks while it renders, and our shortcodes in it then too, which the page's do_shortcode
 * would otherwise run after it, as the embedding post's.
 */
add_filter(
	'register_block_type_args',
	function ( $args, $name ) {
		if ( 'core/block' !== $name || empty( $args['render_callback'] ) || ! is_callable( $args['render_callback'] ) ) {
			return $args;
		}
		$render                  = $args['render_callback'];
		$args['render_callback'] = function ( ...$given ) use ( $render ) {
			$ref = isset( $given[0]['ref'] ) && is_numeric( $given[0]['ref'] ) ? (int) $given[0]['ref'] : 0;
			// (get_post(0) would be the embedding post)
			exp_ecuador_patterns( 1, $ref > 0 ? get_post( $ref ) : null );
			try {
				return exp_ecuador_run_shortcodes( (string) call_user_func_array( $render, $given ) );
			} finally {
				exp_ecuador_patterns( -1 );
			}
		};
		return $args;
	},
	10,
	2
);

/** Runs our shortcodes alone in $content now, as WP_Embed::run_shortcode() runs [embed]. */
function exp_ecuador_run_shortcodes( $content ) {
	global $shortcode_tags;
	if ( false === strpos( $content, '[' ) ) {
		return $content;
	}
	$ours = array();
	foreach ( array_keys( exp_ecuador_elements() ) as $tag ) {
		$shortcode = str_replace( '-', '_', $tag );
		if ( isset( $shortcode_tags[ $shortcode ] ) ) {
			$ours[ $shortcode ] = $shortcode_tags[ $shortcode ];
		}
	}
	if ( ! $ours ) {
		return $content;
	}
	// do_shortcode() turns an escaped [[exp_...]] into [exp_...], which the page's own pass would
	// then run as the embedding post's: escaped once more, it comes out of both passes as text
	$content = preg_replace_callback(
		'/' . get_shortcode_regex( array_keys( $ours ) ) . '/',
		function ( $m ) {
			return '[' === $m[1] && ']' === $m[6] ? '[' . $m[0] . ']' : $m[0];
		},
		$content
	);
	$all            = $shortcode_tags;
	$shortcode_tags = $ours;
	try {
		return do_shortcode( shortcode_unautop( $content ) );
	} finally {
		$shortcode_tags = $all;
	}
}

/** The elements and the attributes each takes (elements.json, made by the build). */
function exp_ecuador_elements() {
	static $elements = null;
	if ( null === $elements ) {
		$file     = __DIR__ . '/elements.json';
		$decoded  = is_readable( $file ) ? json_decode( (string) file_get_contents( $file ), true ) : null;
		$elements = is_array( $decoded ) ? $decoded : array();
	}
	return $elements;
}

/** The settings, with their defaults. */
function exp_ecuador_settings() {
	$saved = get_option( EXP_ECUADOR_OPTION, array() );
	return wp_parse_args(
		is_array( $saved ) ? $saved : array(),
		array(
			'api_url'    => '',
			'api_key'    => '',
			'script_url' => '',
			'brand'      => '',
			'lang'       => '',
			'lead_agent' => '',
		)
	);
}

/** The script's address: the setting, else the data server's own copy. */
function exp_ecuador_script_url() {
	$s = exp_ecuador_settings();
	if ( '' !== $s['script_url'] ) {
		return $s['script_url'];
	}
	return '' !== $s['api_url'] ? untrailingslashit( $s['api_url'] ) . '/widgets/exp-widgets.js' : '';
}

/** Enqueues the module script, once per page however many elements it shows. */
function exp_ecuador_enqueue() {
	$url = exp_ecuador_script_url();
	if ( '' === $url ) {
		return;
	}
	if ( function_exists( 'wp_enqueue_script_module' ) ) {
		wp_enqueue_script_module( 'exp-ecuador-widgets', $url, array(), null );
	} else {
		wp_enqueue_script( 'exp-ecuador-widgets', $url, array(), null, true );
	}
}

/** WordPress before 6.5: the script is a module. */
add_filter(
	'script_loader_tag',
	function ( $tag, $handle ) {
		if ( 'exp-ecuador-widgets' !== $handle || false !== strpos( $tag, 'type="module"' ) ) {
			return $tag;
		}
		return str_replace( '<script ', '<script type="module" ', $tag );
	},
	10,
	2
);

/**
 * The element's markup: the settings first (the data, the language, the lead agent, the colour),
 * then the attributes the shortcode or the block gave, each only if the element takes it, each
 * escaped. An attribute the element does not take is left out (an HTML comment says which, for
 * the editor).
 */
function exp_ecuador_render( $tag, $given ) {
	$elements = exp_ecuador_elements();
	if ( ! isset( $elements[ $tag ] ) ) {
		return '';
	}
	$takes    = $elements[ $tag ]['attributes'];
	$s        = exp_ecuador_settings();
	$attrs    = array();
	$defaults = array(
		'api-url'       => $s['api_url'],
		'api-key'       => $s['api_key'],
		'lang'          => $s['lang'],
		'lead-agent-id' => $s['lead_agent'],
	);
	foreach ( $defaults as $name => $value ) {
		if ( '' !== $value && isset( $takes[ $name ] ) ) {
			$attrs[ $name ] = $value;
		}
	}
	$ignored = array();
	$locked  = array();
	$trusted = null;
	foreach ( (array) $given as $name => $value ) {
		$name = strtolower( str_replace( '_', '-', (string) $name ) );
		if ( ! isset( $takes[ $name ] ) ) {
			$ignored[] = $name;
			continue;
		}
		if ( in_array( $name, EXP_ECUADOR_SETTINGS_ONLY, true ) ) {
			$trusted = null === $trusted ? exp_ecuador_author_may_configure() : $trusted;
			if ( ! $trusted ) {
				$locked[] = $name;
				continue;
			}
		}
		if ( is_bool( $value ) ) {
			$value = $value ? 'true' : 'false';
		}
		if ( ! is_scalar( $value ) ) {
			continue;
		}
		$value = trim( (string) $value );
		if ( '' === $value || strlen( $value ) > 2000 ) {
			continue;
		}
		$attrs[ $name ] = $value;
	}
	$html = '<' . $tag;
	foreach ( $attrs as $name => $value ) {
		$html .= ' ' . $name . '="' . esc_attr( $value ) . '"';
	}
	$brand = sanitize_hex_color( $s['brand'] );
	if ( $brand ) {
		$html .= ' style="' . esc_attr( '--exp-color-primary:' . $brand ) . '"';
	}
	$html .= '></' . $tag . '>';
	if ( $ignored ) {
		$html .= '<!-- exp-ecuador: ' . esc_html( $tag ) . ' takes no ' . esc_html( implode( ', ', array_map( 'sanitize_key', $ignored ) ) ) . ' -->';
	}
	if ( $locked ) {
		$html .= '<!-- exp-ecuador: ' . esc_html( implode( ', ', $locked ) ) . ' come from the settings page (Settings > eXp Ecuador) -->';
	}
	exp_ecuador_enqueue();
	return $html;
}

/** [exp_property_search city="Quito"], [exp_agent_directory], ...: one shortcode per element. */
add_action(
	'init',
	function () {
		foreach ( exp_ecuador_elements() as $tag => $element ) {
			$shortcode = str_replace( '-', '_', $tag );
			add_shortcode(
				$shortcode,
				function ( $atts ) use ( $tag ) {
					return exp_ecuador_render( $tag, is_array( $atts ) ? $atts : array() );
				}
			);
		}
		exp_ecuador_register_blocks();
	}
);

/** A block per element: rendered on the server, the same markup as the shortcode. */
function exp_ecuador_register_blocks() {
	if ( ! function_exists( 'register_block_type' ) ) {
		return;
	}
	wp_register_script( 'exp-ecuador-blocks', plugins_url( 'blocks.js', __FILE__ ), array( 'wp-blocks', 'wp-element', 'wp-block-editor', 'wp-components', 'wp-i18n' ), EXP_ECUADOR_VERSION, true );
	$list = array();
	foreach ( exp_ecuador_elements() as $tag => $element ) {
		$attributes = array();
		foreach ( $element['attributes'] as $name => $spec ) {
			if ( ( in_array( $name, EXP_ECUADOR_SETTINGS_ONLY, true ) || 'lang' === $name ) && empty( $spec['block'] ) ) {
				continue;
			}
			$attributes[ $name ] = array( 'type' => 'string' );
		}
		$name = 'exp-ecuador/' . substr( $tag, 4 );
		// the search and the map want the room of a wide block (a theme's content column is narrow)
		$wide                = in_array( $tag, array( 'exp-property-search', 'exp-property-map' ), true );
		$attributes['align'] = array(
			'type'    => 'string',
			'default' => $wide ? 'wide' : '',
		);
		register_block_type(
			$name,
			array(
				'api_version'     => 2,
				'title'           => $element['title'],
				'category'        => 'widgets',
				'attributes'      => $attributes,
				'supports'        => array( 'align' => array( 'wide', 'full' ) ),
				'editor_script'   => 'exp-ecuador-blocks',
				'render_callback' => function ( $attrs, $content = '', $block = null ) use ( $tag, $wide ) {
					$element = exp_ecuador_render( $tag, array_diff_key( (array) $attrs, array( 'align' => true ) ) );
					// the default alignment, which the editor's alignment support does not write into the block
					$chosen  = is_object( $block ) && isset( $block->parsed_block['attrs']['align'] );
					$extra   = ! $chosen && $wide ? array( 'class' => 'alignwide' ) : array();
					$wrapper = function_exists( 'get_block_wrapper_attributes' ) ? get_block_wrapper_attributes( $extra ) : '';
					return '' === $element ? '' : '<div ' . $wrapper . '>' . $element . '</div>';
				},
			)
		);
		$list[] = array(
			'name'        => $name,
			'tag'         => $tag,
			'title'       => $element['title'],
			'description' => $element['description'],
			'attributes'  => array_values( array_diff( array_keys( $attributes ), array( 'align' ) ) ),
			'wide'        => $wide,
		);
	}
	wp_add_inline_script( 'exp-ecuador-blocks', 'window.expEcuadorBlocks = ' . wp_json_encode( $list ) . ';', 'before' );
}

/** Settings > eXp Ecuador. */
add_action(
	'admin_menu',
	function () {
		add_options_page( __( 'eXp Realty Ecuador', 'exp-ecuador' ), __( 'eXp Ecuador', 'exp-ecuador' ), 'manage_options', 'exp-ecuador', 'exp_ecuador_settings_page' );
	}
);

add_action(
	'admin_init',
	function () {
		register_setting(
			'exp_ecuador',
			EXP_ECUADOR_OPTION,
			array(
				'type'              => 'array',
				'sanitize_callback' => 'exp_ecuador_sanitize',
				'default'           => array(),
			)
		);
	}
);

/** Each setting checked: addresses http(s), the colour a hex colour, the language en or es, the agent an id. */
function exp_ecuador_sanitize( $input ) {
	$input = is_array( $input ) ? $input : array();
	$out   = exp_ecuador_settings();
	foreach ( array( 'api_url', 'script_url' ) as $key ) {
		$value       = isset( $input[ $key ] ) ? trim( (string) $input[ $key ] ) : '';
		$out[ $key ] = '' === $value ? '' : esc_url_raw( $value, array( 'https', 'http' ) );
		if ( '' !== $value && '' === $out[ $key ] ) {
			add_settings_error( EXP_ECUADOR_OPTION, $key, __( 'The addresses must be http or https.', 'exp-ecuador' ) );
		}
	}
	$out['api_key'] = isset( $input['api_key'] ) ? sanitize_text_field( $input['api_key'] ) : '';
	$brand          = isset( $input['brand'] ) ? trim( (string) $input['brand'] ) : '';
	$out['brand']   = '' === $brand ? '' : (string) sanitize_hex_color( $brand );
	if ( '' !== $brand && '' === $out['brand'] ) {
		add_settings_error( EXP_ECUADOR_OPTION, 'brand', __( 'The brand colour must be a hex colour such as #0f5e5a.', 'exp-ecuador' ) );
	}
	$lang        = isset( $input['lang'] ) ? (string) $input['lang'] : '';
	$out['lang'] = in_array( $lang, array( 'en', 'es' ), true ) ? $lang : '';
	$agent       = isset( $input['lead_agent'] ) ? trim( (string) $input['lead_agent'] ) : '';
	$out['lead_agent'] = preg_match( '/^\d{1,15}$/', $agent ) ? $agent : '';
	if ( '' !== $agent && '' === $out['lead_agent'] ) {
		add_settings_error( EXP_ECUADOR_OPTION, 'lead_agent', __( 'The lead agent is an agent\'s id (digits), as the brokerage gives it.', 'exp-ecuador' ) );
	}
	return $out;
}

function exp_ecuador_settings_page() {
	if ( ! current_user_can( 'manage_options' ) ) {
		return;
	}
	$s      = exp_ecuador_settings();
	$fields = array(
		'api_url'    => array( __( 'Data URL', 'exp-ecuador' ), 'url', __( 'The brokerage\'s data server or Supabase project, e.g. https://abc.supabase.co', 'exp-ecuador' ) ),
		'api_key'    => array( __( 'Data key', 'exp-ecuador' ), 'text', __( 'Its public (anon) key.', 'exp-ecuador' ) ),
		'script_url' => array( __( 'Script address', 'exp-ecuador' ), 'url', __( 'Empty: the data server\'s /widgets/exp-widgets.js.', 'exp-ecuador' ) ),
		'brand'      => array( __( 'Brand colour', 'exp-ecuador' ), 'text', __( 'A hex colour, e.g. #0f5e5a.', 'exp-ecuador' ) ),
		'lead_agent' => array( __( 'Lead agent', 'exp-ecuador' ), 'text', __( 'Your agent id: the inquiries and alerts sent from this site come to you.', 'exp-ecuador' ) ),
	);
	// (the errors of a page under Settings are shown by WordPress itself, options-head.php)
	echo '<div class="wrap"><h1>' . esc_html__( 'eXp Realty Ecuador', 'exp-ecuador' ) . '</h1>';
	echo '<form method="post" action="options.php">';
	settings_fields( 'exp_ecuador' );
	echo '<table class="form-table" role="presentation">';
	foreach ( $fields as $key => $field ) {
		$id = 'exp-ecuador-' . $key;
		echo '<tr><th scope="row"><label for="' . esc_attr( $id ) . '">' . esc_html( $field[0] ) . '</label></th><td>';
		echo '<input class="regular-text" type="' . esc_attr( $field[1] ) . '" id="' . esc_attr( $id ) . '" name="' . esc_attr( EXP_ECUADOR_OPTION . '[' . $key . ']' ) . '" value="' . esc_attr( $s[ $key ] ) . '">';
		echo '<p class="description">' . esc_html( $field[2] ) . '</p></td></tr>';
	}
	echo '<tr><th scope="row"><label for="exp-ecuador-lang">' . esc_html__( 'Language', 'exp-ecuador' ) . '</label></th><td><select id="exp-ecuador-lang" name="' . esc_attr( EXP_ECUADOR_OPTION . '[lang]' ) . '">';
	foreach ( array( '' => __( 'The page\'s', 'exp-ecuador' ), 'es' => 'Español', 'en' => 'English' ) as $value => $label ) {
		echo '<option value="' . esc_attr( $value ) . '"' . selected( $s['lang'], $value, false ) . '>' . esc_html( $label ) . '</option>';
	}
	echo '</select></td></tr></table>';
	submit_button();
	echo '</form>';
	$codes = array();
	foreach ( array_keys( exp_ecuador_elements() ) as $tag ) {
		$codes[] = '<code>[' . esc_html( str_replace( '-', '_', $tag ) ) . ']</code>';
	}
	echo '<p>' . esc_html__( 'Shortcodes:', 'exp-ecuador' ) . ' ' . implode( ' ', $codes ) . '</p></div>';
}
