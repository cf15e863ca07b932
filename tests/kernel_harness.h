/* placeholder: interface pending */
