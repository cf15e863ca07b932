/* placeholder: implementation pending */
