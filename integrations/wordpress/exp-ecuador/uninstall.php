<?php
/** Removing the plugin removes its settings. */
if ( ! defined( 'WP_UNINSTALL_PLUGIN' ) ) {
	exit;
}
delete_option( 'exp_ecuador_settings' );
